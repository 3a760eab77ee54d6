"""The module's top level and class bodies: imports by name, decorators, base classes, defaults."""

from __future__ import annotations

import ast

from benchmarks.kernels.verifier.static import allowlist as allow
from benchmarks.kernels.verifier.static.expressions import is_dunder, text
from benchmarks.kernels.verifier.static.kinds import Kind
from benchmarks.kernels.verifier.static.paths import MODULES, Refused, path_value
from benchmarks.kernels.verifier.static.statements import Scope
from benchmarks.kernels.verifier.static.symbols import decorator_path

ALLOWED_DECORATORS = frozenset({"triton.jit", "triton.autotune", "triton.heuristics", f"{allow.NPU_LANG}.kernel",
                                "torch.no_grad", "torch.inference_mode"})
ALLOWED_BASES = frozenset({"torch.nn.Module", f"{allow.NPU_LANG}.TilingData"})
DECORATOR_HELP = ("only @triton.jit / autotune / heuristics, the NPU @kernel, @torch.no_grad() and @staticmethod "
                  "are allowed")


class ModuleScope(Scope):
    """Top-level statements, in module context; function and class bodies are checked on their own."""

    def s_Import(self, node: ast.Import) -> None:
        """Which modules may be imported is the imports rule's business."""

    def s_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name == "*":
                if node.module != allow.NPU_LANG:
                    self.flag(node, "not_allowed", f"from {node.module} import * hides which names are used; "
                                                   "import them by name")
                continue
            path = f"{node.module}.{alias.name}"
            if node.module in MODULES and path not in MODULES:
                try:
                    path_value(path, "init")
                except Refused as refused:
                    self.flag(node, refused.rule, refused.message)

    def s_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.check_decorators(node, in_class=False)
        self.record_defaults(node.name, node)
        self.analysis.bound_so_far.add(node.name)

    s_AsyncFunctionDef = s_FunctionDef

    def check_decorators(self, node: ast.FunctionDef, in_class: bool) -> None:
        for decorator in node.decorator_list:
            builtin_static = in_class and isinstance(decorator, ast.Name) and decorator.id == "staticmethod"
            if builtin_static or decorator_path(self.analysis.index, decorator) in ALLOWED_DECORATORS:
                self.eval(decorator)
            else:
                self.flag(decorator, "not_allowed", f"decorator @{text(decorator)} runs code around the function; "
                                                    + DECORATOR_HELP)

    def record_defaults(self, key: str, node: ast.FunctionDef) -> None:
        a = node.args
        positional = [*a.posonlyargs, *a.args]
        pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults))
        pairs += [(p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
        table = self.analysis.params.setdefault(key, {})
        for param, default in pairs:
            self.analysis.merge(table, param.arg, self.eval(default))

    def s_ClassDef(self, node: ast.ClassDef) -> None:
        index = self.analysis.index
        for base in node.bases:
            path = index.resolve(base)
            own = isinstance(base, ast.Name) and (base.id in index.classes or base.id == "object")
            tensor = (path or text(base)).split(".")[-1] in ("Tensor", "FakeTensor")  # the lazy_tensor rule's
            if not (own or tensor or path in ALLOWED_BASES):
                self.flag(base, "not_allowed", f"class {node.name} subclasses {text(base)}: subclass nn.Module (for "
                                               "ModelNew), TilingData or your own classes")
        if node.keywords:
            self.flag(node, "not_allowed", f"class {node.name}: class keywords (metaclass=...) are not allowed")
        if node.decorator_list:
            self.flag(node, "not_allowed", f"class {node.name}: class decorators are not allowed")
        ClassScope(self.analysis, "module", {}, set(), node.name).run(node.body)
        self.analysis.bound_so_far.add(node.name)


class ClassScope(ModuleScope):
    """A class body: assignments are class attributes; methods are checked for decorators and hook names."""

    def assign_name(self, name: str, kind: Kind) -> None:
        self.analysis.assign_attribute(self.cls, name, kind)

    def s_FunctionDef(self, node: ast.FunctionDef) -> None:
        if is_dunder(node.name):
            self.flag(node, "forbidden_attribute", f"{self.cls}.{node.name}: defining {node.name} hooks into the "
                                                   "interpreter or the framework (operator, attribute and dispatch "
                                                   "hooks are known hacks)")
        if self.analysis.is_tiling(self.cls):
            self.flag(node, "not_allowed", f"{self.cls}.{node.name}: a TilingData subclass may only declare fields")
        self.check_decorators(node, in_class=True)
        self.record_defaults(f"{self.cls}.{node.name}", node)

    s_AsyncFunctionDef = s_FunctionDef

    def s_ClassDef(self, node: ast.ClassDef) -> None:
        self.flag(node, "not_allowed", "define classes at module level, not inside a class")
