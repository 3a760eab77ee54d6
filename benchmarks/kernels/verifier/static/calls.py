"""Calls in host code: the solution's own kernels and helpers, allowed torch/triton/NPU functions,
tensor methods that only query or view, builtins on plain numbers; anything else is refused."""

from __future__ import annotations

import ast

from benchmarks.kernels.verifier.static import allowlist as allow
from benchmarks.kernels.verifier.static.kinds import SCALAR, TENSOR, UNKNOWN, Kind, Tag, element, join_all
from benchmarks.kernels.verifier.static.paths import Refused, init_call, path_call

REFUSED = Kind(Tag.UNKNOWN, "refused")
"""What a refused expression evaluates to: later uses of it are not reported again."""
UNIDENTIFIED = ("the checks cannot tell what this calls; call your kernel, an allowed torch function or your own "
                "helper by name")


def is_dunder(name: str) -> bool:
    """``__x__`` names, apart from the few a solution needs."""
    return name.startswith("__") and name.endswith("__") and name not in allow.ALLOWED_DUNDERS


def init_target(base: Kind, node: ast.AST) -> bool:
    """True when ``node.__init__`` is a constructor call a solution makes: on ``super()`` or on a class (a second
    ``__init__`` on an object rewrites it in place, e.g. a simulated launch profile's cycle count)."""
    is_super = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    return is_super or base.tag in (Tag.CLASS, Tag.PATH)


def init_refusal(node: ast.AST) -> tuple[str, str]:
    return ("forbidden_attribute", f"{text(node)}: __init__ may be called only in __init__, as super().__init__(...) "
                                   "or on a class, never on an object (forward ran ModelNew.__init__ on its inputs "
                                   "under the constructor's rules)")


def text(node: ast.AST, limit: int = 48) -> str:
    """Source text of ``node`` for messages, shortened."""
    source = ast.unparse(node)
    return source if len(source) <= limit else source[:limit - 3] + "..."


class CallRules:
    """The call half of :class:`~benchmarks.kernels.verifier.static.expressions.ExpressionScope`."""

    def _Call(self, node: ast.Call) -> Kind:
        args = [self.argument(a) for a in node.args]
        kwargs = {k.arg: self.argument(k.value) for k in node.keywords}
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in allow.EXIT_METHODS:
            self.flag(node, "early_exit", f"{text(node)} ends or signals a process; the evaluation must run to the "
                                          "end")
        path = self.import_path(func)
        if path and self.ctx == "init" and init_call(path):
            return Kind(Tag.LAYER, path) if path.split(".")[-1] in allow.PARAMETRISED_LAYERS else TENSOR
        if isinstance(func, ast.Attribute) and not is_dunder(func.attr):
            base = self.eval(func.value)
            if func.attr == "__init__" and not (init_target(base, func.value) and (self.key or "").endswith(".__init__")):
                return self.flag(node, *init_refusal(func))
            return self.method_call(base, node, args, kwargs)
        return self.call(self.eval(func), node, args, kwargs)

    def import_path(self, node: ast.AST) -> str | None:
        """The imported dotted path ``node`` names, unless a local name hides the import."""
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.local_names:
            return None
        return self.analysis.index.resolve(node)

    def argument(self, node: ast.AST) -> Kind:
        """An argument's kind; a lambda may not be passed anywhere (it is only a Triton launch grid)."""
        kind = self.eval(node)
        if kind.tag is Tag.LAMBDA:
            return self.flag(node, "not_allowed", "a lambda may only be a Triton launch grid "
                                                  "(kernel[lambda meta: ...])")
        return kind

    def method_call(self, receiver: Kind, node: ast.Call, args: list[Kind], kwargs: dict) -> Kind:
        attr = node.func.attr
        tag = receiver.tag
        if tag is Tag.PATH:
            return self.call(self.path(f"{receiver.name}.{attr}", node.func), node, args, kwargs)
        if tag in (Tag.SELF, Tag.OBJ, Tag.CLASS):
            return self.call(self.analysis.member(receiver, attr, node.func, self), node, args, kwargs,
                             bound=tag is not Tag.CLASS)
        if tag is Tag.SUPER:
            return SCALAR if attr == "__init__" else self.flag(node, "not_allowed", f"{text(node)}: only "
                                                                                  "super().__init__() is allowed")
        if tag is Tag.LIB:
            return TENSOR
        if tag is Tag.LAYER:
            return self.layer_attribute(node.func)
        if tag is Tag.SCALAR:
            return self.scalar_method(node, args, kwargs)
        if tag in (Tag.TENSOR, Tag.UNKNOWN, Tag.NONE):
            return self.tensor_method(receiver, node)
        return self.flag(node, "not_allowed", f"{text(node)}: {UNIDENTIFIED}")

    def scalar_method(self, node: ast.Call, args: list[Kind], kwargs: dict) -> Kind:
        if node.func.attr in allow.MUTATORS and (self.ctx != "init" or not self.own_object(node.func.value)):
            return self.flag(node, "stateful", f"{text(node)} mutates a container: call counters and caches kept "
                                               "across calls, and class-level containers that reach kernels, are "
                                               "known hacks")
        self.scalar_only([*args, *kwargs.values()], node, "passes")
        return SCALAR

    def own_object(self, node: ast.AST) -> bool:
        """True when ``node`` is reached from ``self`` or a local name (never from a module-level name)."""
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return isinstance(node, ast.Name) and (node.id == "self" or node.id in self.local_names)

    def tensor_method(self, receiver: Kind, node: ast.Call) -> Kind:
        attr = node.func.attr
        if receiver == REFUSED:
            return REFUSED
        if self.ctx == "init" and attr not in allow.INIT_DENIED_METHODS and not attr.startswith("_"):
            return SCALAR if attr in allow.TENSOR_QUERIES else TENSOR
        if attr in allow.TENSOR_QUERIES:
            return SCALAR
        if attr in allow.TENSOR_VIEWS and self.ctx != "module":
            return TENSOR
        return self.flag(node, "framework_compute", f"{text(node)} calls the tensor method .{attr}(), framework "
                                                    "compute: do it in your kernel (outside it tensors may only be "
                                                    "viewed: .contiguous(), .view(), .reshape(), ...; and queried: "
                                                    ".size(), .numel(), .stride(), ...)")

    def call(self, callee: Kind, node: ast.Call, args: list[Kind], kwargs: dict, bound: bool = False) -> Kind:
        """The kind of calling ``callee``."""
        tag = callee.tag
        if tag is Tag.PATH:
            return self.path_call(callee.name, node, args, kwargs)
        if tag is Tag.FUNC:
            return self.analysis.call_function(callee.name, node, args, kwargs, bound)
        if tag is Tag.CLASS:
            return self.analysis.instantiate(callee.name, args, kwargs, node, self)
        if tag is Tag.OBJ:
            return self.analysis.call_object(callee.name, args, kwargs, node, self)
        if tag is Tag.BUILTIN:
            return self.builtin_call(callee.name, node, args, kwargs)
        if tag in (Tag.KERNEL, Tag.LAUNCH):
            return TENSOR
        if callee == REFUSED:
            return REFUSED
        return self.flag(node, *self.bad_call(callee, node))

    def bad_call(self, callee: Kind, node: ast.Call) -> tuple[str, str]:
        if callee.tag is Tag.TRITON:
            return "not_allowed", f"{text(node)}: launch a Triton kernel as kernel[grid](...)"
        if callee.tag is Tag.NPU_KERNEL:
            return "not_allowed", f"{text(node)}: launch an NPU kernel with launch(kernel, block_dim, ...)"
        if callee.tag is Tag.LAMBDA:
            return "not_allowed", "a lambda may only be a Triton launch grid, never called"
        if callee.tag is Tag.LAYER:
            return "framework_compute", (f"{text(node)} calls an nn layer, which runs the framework's op: a layer may "
                                         "only hold weights; compute in your kernel")
        return "not_allowed", f"{text(node)}: {UNIDENTIFIED}"

    def path_call(self, path: str, node: ast.Call, args: list[Kind], kwargs: dict) -> Kind:
        if path == f"{allow.NPU_LANG}.launch":
            return self.npu_launch(node, args)
        try:
            return path_call(path, self.ctx, [*args, *kwargs.values()])
        except Refused as refused:
            return self.flag(node, refused.rule, refused.message)

    def npu_launch(self, node: ast.Call, args: list[Kind]) -> Kind:
        if not args or args[0].tag is not Tag.NPU_KERNEL:
            return self.flag(node, "not_allowed", f"{text(node)}: launch() takes one of your @kernel functions first")
        if node.keywords:  # chip= would let the solution time itself on a chip of its own making
            return self.flag(node, "not_allowed", f"{text(node)}: launch(kernel, block_dim, args...) takes no keyword "
                                                  "arguments (the chip and the tracing are the verifier's)")
        return SCALAR

    def builtin_call(self, name: str, node: ast.Call, args: list[Kind], kwargs: dict) -> Kind:
        values = [*args, *kwargs.values()]
        if name == "super":
            return Kind(Tag.SUPER)
        if name.startswith("module.register_") and node.args and isinstance(node.args[0], ast.Constant):
            self.analysis.assign_attribute(self.cls, str(node.args[0].value), TENSOR)
        if name in ("len", "isinstance"):
            return SCALAR
        if name in allow.DATA_BUILTINS or name == "slice":
            self.scalar_only(values, node, "converts or reduces")  # allowed in __init__: the result may be a tensor
            return SCALAR if all(v.tag is Tag.SCALAR for v in values) else UNKNOWN
        if name in ("tuple", "list", "frozenset", "dict", "enumerate", "zip"):
            return join_all(element(v) for v in values)
        self.scalar_only(values, node, "wraps")  # an exception's args handed a tensor back as a plain value
        return SCALAR
