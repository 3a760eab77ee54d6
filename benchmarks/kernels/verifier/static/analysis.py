"""The whole-module pass: module-level code, then every host function, until what each name may hold
stops changing; then one more pass that reports.

Parameters take their kinds from the call sites (``forward``'s are tensors, ``ModelNew.__init__``'s
are the task's init inputs, plain data); attributes of ``self`` from what the class assigns.
"""

from __future__ import annotations

import ast
import builtins

from benchmarks.kernels.verifier.static import allowlist as allow
from benchmarks.kernels.verifier.static.expressions import REFUSED, ExpressionScope, text
from benchmarks.kernels.verifier.static.grid import grid_problems
from benchmarks.kernels.verifier.static.kinds import NONE, SCALAR, TENSOR, UNKNOWN, Kind, Tag, join
from benchmarks.kernels.verifier.static.module_scope import ModuleScope
from benchmarks.kernels.verifier.static.paths import Refused, language_of, path_value
from benchmarks.kernels.verifier.static.statements import Scope
from benchmarks.kernels.verifier.static.symbols import ModuleIndex, reachability
from benchmarks.kernels.verifier.static_rules import own_scope
from sandboxes.targets.base import Violation

MAX_ROUNDS = 40
ENTRY = "ModelNew"
MODULE_BASE = "torch.nn.Module"
TILING_BASE = f"{allow.NPU_LANG}.TilingData"


class Analysis:
    """Kinds of every module name, parameter, return value and attribute, and the violations found."""

    def __init__(self, index: ModuleIndex, languages: tuple[str, ...]) -> None:
        self.index = index
        self.languages = languages
        self.host, self.device = reachability(index)
        self.reporting = False
        self.changed = False
        self.found: set[Violation] = set()
        self.module_env: dict[str, Kind] = {}
        self.params: dict[str, dict[str, Kind]] = {}
        self.returns: dict[str, Kind] = {}
        self.attrs: dict[str, dict[str, Kind]] = {}
        self.envs: dict[str, dict[str, Kind]] = {}
        self.lambdas: dict[int, tuple[ast.Lambda, ExpressionScope]] = {}
        self.grids: set[int] = set()
        self.lambda_envs: dict[int, dict[str, Kind]] = {}
        self.bound_so_far: set[str] = set()
        """Module-level names the top-level pass has bound so far (module code sees names in order)."""

    def run(self) -> None:
        """Iterate to a fixed point, then report (into :attr:`found`)."""
        for _ in range(MAX_ROUNDS):
            self.changed = False
            self.run_once()
            if not self.changed:
                break
        self.reporting = True
        if self.changed:  # kinds still moving: a verdict on them would trust what is not settled yet
            self.found.add(Violation("not_allowed", 1, f"the solution's helpers call one another too deeply to be "
                                                       f"checked ({MAX_ROUNDS} rounds did not settle what they "
                                                       "return); call fewer helpers in a chain"))
        self.run_once()
        for key, (node, scope) in list(self.lambdas.items()):
            if key not in self.grids:
                self.check_lambda(node, scope, UNKNOWN)

    def run_once(self) -> None:
        self.bound_so_far = set()
        ModuleScope(self, "module", self.module_env, set()).run(self.index.tree.body)
        for name in sorted(self.host):
            if name in self.index.functions:
                self.check_function(name, self.index.functions[name], None)
            for method_name, method in self.index.methods(name).items():
                self.check_function(f"{name}.{method_name}", method, name)

    def check_function(self, key: str, node: ast.FunctionDef, cls: str | None) -> None:
        env = self.envs.setdefault(key, {})
        ctx = "init" if cls and node.name == "__init__" and self.is_module_class(cls) else "host"
        for name, kind in self.entry_params(key, node, cls).items():
            env[name] = join(env.get(name, NONE), kind)
        locals_ = _local_names(node)
        Scope(self, ctx, env, locals_, cls, key).run(node.body)

    def entry_params(self, key: str, node: ast.FunctionDef, cls: str | None) -> dict[str, Kind]:
        names = _param_names(node)
        kinds = dict(self.params.get(key, {}))
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
        if cls and names and not static:
            kinds[names[0]] = Kind(Tag.SELF, cls)
            names = names[1:]
        if cls and self.index.find_method(ENTRY, node.name) == (cls, node):
            entry_kind = TENSOR if node.name == "forward" else SCALAR if node.name == "__init__" else None
            kinds.update({n: entry_kind for n in names if entry_kind is not None})
        return kinds

    def flag(self, node: ast.AST, rule: str, message: str) -> None:
        """Record a violation (only during the reporting pass)."""
        if self.reporting:
            self.found.add(Violation(rule, getattr(node, "lineno", 0), message))

    def global_kind(self, name: str, node: ast.AST, ctx: str) -> Kind:
        """What a module-level (or builtin) name holds."""
        index = self.index
        if ctx == "module" and name not in self.bound_so_far and name in index.aliases:
            return self.alias_kind(name, node, ctx)
        if name.startswith("__") and name.endswith("__"):
            if name in allow.ALLOWED_DUNDERS:
                return SCALAR
            self.flag(node, "forbidden_attribute", f"{name} reaches interpreter internals; solutions may not use it")
            return REFUSED
        if name in index.functions:
            flavour = index.device.get(name)
            return Kind(Tag.TRITON if flavour == "triton" else Tag.NPU_KERNEL if flavour else Tag.FUNC, name)
        if name in index.classes:
            return Kind(Tag.CLASS, name)
        if name in index.bindings or name in self.module_env:
            kind = self.module_env.get(name, NONE)
            return UNKNOWN if kind.tag is Tag.NONE and self.reporting else kind
        if name in index.aliases:
            return self.alias_kind(name, node, ctx)
        return self.builtin_kind(name, node)

    def alias_kind(self, name: str, node: ast.AST, ctx: str) -> Kind:
        return self.path_kind(self.index.aliases[name], node, ctx)

    def path_kind(self, path: str, node: ast.AST, ctx: str) -> Kind:
        """What naming an imported ``path`` gives in ``ctx``: refused when it is off the list or belongs to
        a kernel language this target does not run."""
        language = language_of(path)
        if language is not None and language not in self.languages:
            self.flag(node, "not_allowed", f"{path} belongs to {language} kernels, which this target does not run "
                                           f"(it takes {', '.join(self.languages)})")
            return REFUSED
        try:
            return path_value(path, ctx)
        except Refused as refused:
            self.flag(node, refused.rule, refused.message)
            return REFUSED

    def builtin_kind(self, name: str, node: ast.AST) -> Kind:
        if name in allow.BANNED_BUILTINS:
            self.flag(node, *allow.BANNED_BUILTINS[name])
            return REFUSED
        if name in allow.HOST_BUILTINS:
            return Kind(Tag.BUILTIN, name)
        if hasattr(builtins, name):
            self.flag(node, "not_allowed", f"the builtin {name} is not on the allow-list of what a solution may use")
            return REFUSED
        return REFUSED  # defined nowhere (the checks refuse every way to define names at run time): a NameError

    def assign_global(self, name: str, kind: Kind) -> None:
        self.bound_so_far.add(name)
        self.merge(self.module_env, name, kind)

    def assign_attribute(self, cls: str, attr: str, kind: Kind) -> None:
        self.merge(self.attrs.setdefault(cls, {}), attr, kind)

    def record_return(self, key: str, kind: Kind) -> None:
        self.merge(self.returns, key, kind)

    def merge(self, table: dict[str, Kind], name: str, kind: Kind) -> None:
        """Join ``kind`` into ``table[name]``; note when anything changed (the fixed point is not reached yet)."""
        merged = join(table.get(name, NONE), kind)
        if merged != table.get(name):
            table[name] = merged
            self.changed = True

    def call_function(self, key: str, node: ast.Call, args: list[Kind], kwargs: dict, bound: bool) -> Kind:
        """Record a call's argument kinds on ``key``'s parameters; the kind it returns so far."""
        function = self.function_node(key)
        if function is None:
            return UNKNOWN
        names = _param_names(function)[1 if bound else 0:]
        table = self.params.setdefault(key, {})
        spread = (any(isinstance(a, ast.Starred) for a in node.args) or None in kwargs
                  or function.args.vararg is not None or function.args.kwarg is not None)
        pairs = [(n, k) for n in names for k in [*args, *kwargs.values()]] if spread else [
            *zip(names, args), *((n, k) for n, k in kwargs.items() if n in names)]
        for name, kind in pairs:
            self.merge(table, name, kind)
        kind = self.returns.get(key, NONE)
        if kind.tag is Tag.NONE and self.reporting:  # nothing inferred: None only if it never returns a value
            return UNKNOWN if _returns_value(function) else SCALAR
        return kind

    def function_node(self, key: str) -> ast.FunctionDef | None:
        cls, _, name = key.rpartition(".")
        return self.index.methods(cls).get(name) if cls else self.index.functions.get(name)

    def instantiate(self, cls: str, args: list[Kind], kwargs: dict, node: ast.Call, scope: ExpressionScope) -> Kind:
        if self.is_module_class(cls) and scope.ctx != "init":
            scope.flag(node, "not_allowed", f"{text(node)} builds an nn.Module outside __init__")
        if self.is_tiling(cls):
            scope.scalar_only([*args, *kwargs.values()], node, "fills a tiling with")
        found = self.index.find_method(cls, "__init__")
        if found:
            self.call_function(f"{found[0]}.__init__", node, args, kwargs, bound=True)
        return Kind(Tag.OBJ, cls)

    def call_object(self, cls: str, args: list[Kind], kwargs: dict, node: ast.Call, scope: ExpressionScope) -> Kind:
        found = self.index.find_method(cls, "forward") if self.is_module_class(cls) else None
        if found is None:
            return scope.flag(node, "not_allowed", f"{text(node)}: objects of {cls} cannot be called")
        return self.call_function(f"{found[0]}.forward", node, args, kwargs, bound=True)

    def member(self, base: Kind, attr: str, node: ast.AST, scope: ExpressionScope) -> Kind:
        """``self.attr`` / ``obj.attr`` on the solution's own class: a method, an assigned attribute or a field."""
        cls = base.name
        found = self.index.find_method(cls, attr)
        if found:
            return Kind(Tag.FUNC, f"{found[0]}.{attr}")
        kind = self.class_attribute(cls, attr)
        if kind is not None:
            return UNKNOWN if kind.tag is Tag.NONE else kind
        if attr == "training" and self.is_module_class(cls):
            return SCALAR
        if base.tag is Tag.SELF and scope.ctx == "init" and attr in allow.MODULE_METHODS_INIT:
            return Kind(Tag.BUILTIN, "module." + attr)
        if self.is_tiling(cls) and attr in self.tiling_fields(cls):
            return SCALAR
        if not self.reporting:
            return NONE
        return scope.flag(node, "not_allowed", f"{text(node)}: {cls} has no method or attribute {attr!r} set by its "
                                               "own code (nn.Module's machinery is off limits)")

    def class_attribute(self, cls: str, attr: str) -> Kind | None:
        for current in [cls, *self.index.own_bases(cls)]:
            if attr in self.attrs.get(current, {}):
                return self.attrs[current][attr]
        return None

    def is_module_class(self, cls: str) -> bool:
        own = self.index.own_bases(cls)
        return MODULE_BASE in self.index.base_paths(cls) or any(self.is_module_class(b) for b in own)

    def is_tiling(self, cls: str) -> bool:
        return TILING_BASE in self.index.base_paths(cls) or any(self.is_tiling(b) for b in self.index.own_bases(cls))

    def tiling_fields(self, cls: str) -> set[str]:
        fields = {s.target.id for s in self.index.classes[cls].body
                  if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
        return fields.union(*(self.tiling_fields(b) for b in self.index.own_bases(cls)))

    def lambda_kind(self, node: ast.Lambda | ast.FunctionDef, scope: ExpressionScope) -> Kind:
        """A lambda (or nested grid function), remembered for its grid check; its default values run where it is
        made, so they are judged there (``lambda meta=exec(...): meta`` at module level)."""
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            scope.eval(default)
        self.lambdas[id(node)] = (node, scope)
        return Kind(Tag.LAMBDA, str(id(node)))

    def grid_lambda(self, key: int) -> None:
        """A lambda used as a Triton grid: Triton calls it with a dict of launch meta-parameters."""
        self.grids.add(key)
        node, scope = self.lambdas[key]
        self.check_lambda(node, scope, SCALAR)
        for where, message in grid_problems(node):
            self.flag(where, "not_allowed", message)

    def check_lambda(self, node: ast.Lambda | ast.FunctionDef, scope: ExpressionScope, param: Kind) -> None:
        """Check a lambda's (or nested grid function's) body with its parameters of kind ``param``."""
        names = _param_names(node)
        env = self.lambda_envs.setdefault(id(node), {})  # kept across rounds, so that the fixed point is reached
        for name, kind in {**scope.env, **{n: param for n in names}}.items():
            env[name] = join(env.get(name, NONE), kind)
        if isinstance(node, ast.Lambda):
            Scope(self, scope.ctx, env, set(scope.local_names) | set(names), scope.cls, scope.key or "<lambda>").eval(
                node.body)
            return
        local_names = set(scope.local_names) | _local_names(node)
        Scope(self, scope.ctx, env, local_names, scope.cls, f"{scope.key}.{node.name}").run(node.body)


def _param_names(node: ast.FunctionDef | ast.Lambda) -> list[str]:
    a = node.args
    names = [p.arg for p in [*a.posonlyargs, *a.args]]
    names += [p.arg for p in (a.vararg, *a.kwonlyargs, a.kwarg) if p is not None]
    return names


def _local_names(node: ast.FunctionDef) -> set[str]:
    declared = {n for s in ast.walk(node) if isinstance(s, (ast.Global, ast.Nonlocal)) for n in s.names}
    stored = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return (stored | set(_param_names(node))) - declared


def _returns_value(function: ast.FunctionDef) -> bool:
    """True when a ``return`` of the function's own body gives something other than None."""
    return any(isinstance(node, ast.Return) and node.value is not None and not (
        isinstance(node.value, ast.Constant) and node.value.value is None) for node in own_scope(function))
