"""Structural rules beside the allow-list (``benchmarks.kernels.verifier.static``): imports, try/except,
monkeypatching, tensor subclasses, state kept across calls, the reference's names.

Every rule takes the parsed module and returns :class:`Violation` objects whose message tells the
agent what to change. ``KNOWN_HACKS`` maps every rule name any stage emits (these rules, the
allow-list, the native symbol check) to the hack it blocks; every entry has an adversarial solution
in ``builtin:adversarial`` and a test.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
from typing import Iterator

from benchmarks.kernels.verifier.static.allowlist import NPU_LANG
from sandboxes.targets.base import Violation

BASE_IMPORTS = ("torch", "torch.nn", "torch.nn.functional", "math", "typing", "numbers", "__future__")
"""Modules any solution may import (what it may use from them is the allow-list's business)."""
LANGUAGE_IMPORTS = {"native": ("sandboxes.targets.native", "torch.utils.cpp_extension"),
                    "triton": ("triton", "triton.language"), "npu": (NPU_LANG,)}
"""Modules of each way of writing a kernel: native C++/CUDA, Triton, the NPU kernel language."""
ALL_LANGUAGES = tuple(LANGUAGE_IMPORTS)
ALLOWED_IMPORTS = BASE_IMPORTS + tuple(m for modules in LANGUAGE_IMPORTS.values() for m in modules)
"""Every module a solution may import on some target."""


def allowed_imports(languages: tuple[str, ...]) -> tuple[str, ...]:
    """The modules a solution in ``languages`` may import."""
    return BASE_IMPORTS + tuple(m for lang in languages for m in LANGUAGE_IMPORTS.get(lang, ()))


def _walk_functions(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def module_aliases(tree: ast.Module) -> dict[str, str]:
    """Local name -> imported module path (``F`` -> ``torch.nn.functional``); a star import of an allowed module
    binds each of its public names (``TilingData`` from the NPU kernel language)."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                if alias.name == "*":
                    aliases.update({name: f"{node.module}.{name}" for name in star_names(node.module)})
    return aliases


STAR_IMPORTS = (NPU_LANG,)
"""The only module a solution may star-import: the NPU kernel language (to find the names it binds, the checks
import it; importing another module named in a solution ran that module's code in the checker)."""


@functools.lru_cache(maxsize=None)
def star_names(module: str) -> tuple[str, ...]:
    """The names ``from module import *`` binds, for a module of :data:`STAR_IMPORTS` (nothing for any other)."""
    if module not in STAR_IMPORTS:
        return ()
    loaded = importlib.import_module(module)
    return tuple(getattr(loaded, "__all__", [n for n in dir(loaded) if not n.startswith("_")]))


def imports_rule(tree: ast.Module, allowed: tuple[str, ...] = ALLOWED_IMPORTS) -> list[Violation]:
    """Only allow-listed modules: no os/sys/time/threading/ctypes/gc/inspect/importlib or the task module."""
    found = []
    for node in ast.walk(tree):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        for name in names:
            if isinstance(node, ast.ImportFrom) and node.level:
                name = "." * node.level + name
            if not any(name == a or name.startswith(a + ".") for a in allowed):
                found.append(Violation("imports", node.lineno, f"import of {name!r} is not allowed (threads, "
                                       f"processes, timers, introspection and the reference module are off limits); "
                                       f"allowed: {', '.join(allowed)}"))
            elif isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names) and name not in STAR_IMPORTS:
                found.append(Violation("imports", node.lineno, f"from {name} import * is not allowed: import the names "
                                       f"you use (only {', '.join(STAR_IMPORTS)} may be star-imported)"))
    return found


def try_except_rule(tree: ast.Module) -> list[Violation]:
    """No try statement: a failing kernel must fail, not fall back to the framework, and a ``finally: return`` swallows
    the error as well as an ``except`` does (an NPU launch that raised in its last block left its cycles uncounted)."""
    return [Violation("try_fallback", node.lineno, "try is not allowed (with except or finally): a fallback to the "
                      "reference, or a finally that returns past an error, is a known hack; let errors surface")
            for node in ast.walk(tree) if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try)))]


def monkeypatch_rule(tree: ast.Module) -> list[Violation]:
    """No assignment to attributes of imported modules or their classes (timers, synchronize, allclose), however
    renamed first (``cls = LocalTensor; cls.GetValue = f``)."""
    modules = renamed(tree, set(module_aliases(tree)))
    found = []
    for node in ast.walk(tree):
        for target in _assign_targets(node):
            if isinstance(target, ast.Attribute) and _root_name(target) in modules:
                found.append(Violation("monkeypatch", node.lineno, f"assigning {_dotted(target)!r} patches a library "
                                       "(timers, synchronize and comparisons are known targets)"))
    return found


def renamed(tree: ast.Module, roots: set[str]) -> set[str]:
    """``roots`` plus every name bound (anywhere, ``a = b`` or ``a = b.c``) to one of them, to a fixpoint."""
    names = set(roots)
    while True:
        more = {target.id for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr))
                and isinstance(node.value, (ast.Name, ast.Attribute)) and _root_name(node.value) in names
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Name)} - names
        if not more:
            return names
        names |= more


def class_value_rule(tree: ast.Module) -> list[Violation]:
    """A class, the solution's or an imported one, and an imported module are used by name only (called, read from,
    subscripted, compared, a base, an ``isinstance`` argument, an annotation), never held as a value. Through
    ``holder = Memo`` a kernel set ``holder.items``, class-level state every block, launch and call shared (mse_loss
    partial sums passed between blocks in Python; a SpMV's matrix kept across calls, 7.3x), out of sight of the rules
    that read ``Memo.items`` itself; ``for c in (LocalTensor,): c.buffer = "UB"`` or a helper's parameter patched the
    NPU language the same way, out of sight of the monkeypatch rule."""
    classes = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    aliases = module_aliases(tree)
    modules = frozenset(alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names)
    allowed = _used_by_name(tree) | _local_loads(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in allowed or not isinstance(getattr(node, "ctx", None), ast.Load):
            continue
        if isinstance(node, ast.Name) and node.id in classes:
            what = node.id
        elif isinstance(node, (ast.Name, ast.Attribute)) and (kind := imported_kind(_imported_path(node, aliases),
                                                                                     modules)):
            what = f"the {kind} {_dotted(node)}"
        else:
            continue
        found.append(Violation("stateful", node.lineno, f"{what} is held as a value: use a class or module by name "
                               "(call it, read from it); one kept in a variable or passed on carried state between "
                               "blocks and calls, or was patched"))
    return found


def _used_by_name(tree: ast.Module) -> set[int]:
    """Ids of the expressions in a by-name position: called, read from, subscripted, compared, a base, an
    ``isinstance``/``issubclass``/``super`` argument (or an item of a tuple there), a decorator, an annotation."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            allowed.add(id(node.func))
            if isinstance(node.func, ast.Name) and node.func.id in {"isinstance", "issubclass", "super"}:
                for arg in node.args:
                    allowed.update(id(item) for item in ([arg, *arg.elts] if isinstance(arg, ast.Tuple) else [arg]))
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            allowed.add(id(node.value))
        elif isinstance(node, ast.Compare):
            allowed.update(id(operand) for operand in [node.left, *node.comparators])
        elif isinstance(node, ast.ClassDef):
            allowed.update(id(base) for base in node.bases)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            allowed.update(id(decorator) for decorator in node.decorator_list)
    for annotation in _annotations(tree):
        allowed.update(id(part) for part in ast.walk(annotation))
    return allowed


def _local_loads(tree: ast.Module) -> set[int]:
    """Ids of the names read in a function that the function binds itself (its arguments, its assignments and loop
    targets): those are locals, not the module's classes or imports (``nn = min(...)`` beside ``import torch.nn
    as nn``)."""
    found: set[int] = set()
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    for scope in scopes:
        body = list(own_scope(scope))
        names = {a.arg for a in arguments(scope.args)}
        names |= {n.id for n in body if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        found.update(id(n) for n in body if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names)
    return found


def own_scope(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, not descending into nested functions, lambdas and classes."""
    stack = [function.body] if isinstance(function, ast.Lambda) else list(function.body)
    while stack:
        node = stack.pop()
        yield node
        stack += [child for child in ast.iter_child_nodes(node)
                  if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef))]


def _imported_path(node: ast.AST, aliases: dict[str, str]) -> str | None:
    text = _dotted(node)
    head, _, rest = text.partition(".")
    if head not in aliases:
        return None
    return aliases[head] + ("." + rest if rest else "")


def imported_kind(path: str | None, modules: frozenset[str] = frozenset()) -> str | None:
    """``"class"`` or ``"module"`` when ``path`` names one: a whole module the solution imports (``modules``), or a
    class or module reached by attributes from a module the checks may import (:data:`ALLOWED_IMPORTS`; no other
    module is imported to find out)."""
    if path is None:
        return None
    if path in modules:
        return "module"
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        if ".".join(parts[:cut]) in ALLOWED_IMPORTS:
            value = importlib.import_module(".".join(parts[:cut]))
            for attr in parts[cut:]:
                value = inspect.getattr_static(value, attr, None)
            return "module" if inspect.ismodule(value) else "class" if inspect.isclass(value) else None
    return None


def subclass_rule(tree: ast.Module) -> list[Violation]:
    """No tensor subclasses (lazy tensors that compute only when compared)."""
    return [Violation("lazy_tensor", node.lineno, f"class {node.name} subclasses {_dotted(base)}: tensor "
                      "subclasses are not allowed; return a plain torch.Tensor")
            for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            for base in node.bases if _dotted(base).split(".")[-1] in {"Tensor", "FakeTensor"}]


def _assign_targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    return [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []


def state_rule(tree: ast.Module) -> list[Violation]:
    """No global/nonlocal state, no writes to module-level objects or to ``self`` outside ``__init__``."""
    found = [Violation("stateful", node.lineno, "global/nonlocal state is not allowed (caching outputs is a known hack)")
             for node in ast.walk(tree) if isinstance(node, (ast.Global, ast.Nonlocal))]
    module_names = {t.id for node in tree.body for t in _assign_targets(node) if isinstance(t, ast.Name)}
    module_names |= {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                         ast.ClassDef))}
    module_names |= {(alias.asname or alias.name).split(".")[0] for node in tree.body
                     if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    for function in _walk_functions(tree):
        parameters = {a.arg for a in arguments(function.args)}
        found += [Violation("stateful", node.lineno, f"{ast.unparse(node)[:60]}: += on a parameter changes the "
                            "caller's list in place (a module-level list or one on self counted calls); write "
                            f"{node.target.id} = {node.target.id} + ... instead")
                  for node in own_scope(function) if isinstance(node, ast.AugAssign)
                  and isinstance(node.target, ast.Name) and node.target.id in parameters]
        owners = module_names | ({"self"} if function.name != "__init__" else set())
        for node in ast.walk(function):
            found += [Violation("stateful", node.lineno, f"{function.name} assigns {ast.unparse(t)}: storing state "
                                "across calls is not allowed (cached outputs are a known hack)")
                      for t in _assign_targets(node)
                      if isinstance(t, (ast.Attribute, ast.Subscript)) and _root_name(t) in owners]
    return found


CLASS_BODY = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.Expr, ast.Pass)
"""The statements a class body may hold (an expression statement is its docstring)."""


def class_state_rule(tree: ast.Module) -> list[Violation]:
    """Class-level names are constants: a class-level list or dict is one object every instance shares (a carrier
    that took host tensors from forward into kernels, through ``self.box`` or a tiling's ``tiling.box``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                if not isinstance(statement, CLASS_BODY):
                    found.append(Violation("stateful", statement.lineno, f"a class body holds methods and constants "
                                           f"only, not {type(statement).__name__.lower()} statements (a class-level "
                                           "for bound a list every instance shared)"))
                    continue
                names = [name for name in class_level_names(statement) if not name.startswith("__")]
                if names and not is_literal(statement.value):
                    found.append(Violation("stateful", statement.lineno, f"{node.name}.{names[0]} is class-level data "
                                           "that is not a constant: every instance shares it; keep state on self in "
                                           "__init__"))
    return found


def default_rule(tree: ast.Module) -> list[Violation]:
    """Default argument values are constants: a default is made once and every call shares it, so a list default
    carried partial sums from one simulated block to the next (and could carry anything across calls)."""
    constants = {name for statement in tree.body if isinstance(statement, (ast.Assign, ast.AnnAssign))
                 and is_constant(statement.value) for name in class_level_names(statement)}
    imported = set(module_aliases(tree))
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    return [Violation("stateful", default.lineno, f"default value {ast.unparse(default)[:60]}: defaults must be "
                      "constants (numbers, strings, None, tuples of them, module-level constants, imported names "
                      "such as torch.float32); a mutable default is state every call shares")
            for function in functions
            for default in [*function.args.defaults, *(d for d in function.args.kw_defaults if d is not None)]
            if not (is_constant(default) or (isinstance(default, ast.Name) and default.id in constants | imported)
                    or (isinstance(default, ast.Attribute) and _root_name(default) in imported))]


def is_constant(node: ast.AST | None) -> bool:
    """A literal (:func:`is_literal`), arithmetic on constants (``1 << 20``, ``2 * 1024``) or a tuple of constants."""
    if isinstance(node, ast.BinOp):
        return is_constant(node.left) and is_constant(node.right)
    if isinstance(node, ast.Tuple):
        return all(is_constant(item) for item in node.elts)
    return is_literal(node)


def class_level_names(statement: ast.stmt) -> list[str]:
    """The plain names a statement of a class body binds to a value (``x = ...``, ``x: T = ...``)."""
    targets = statement.targets if isinstance(statement, ast.Assign) else (
        [statement.target] if isinstance(statement, ast.AnnAssign) and statement.value else [])
    return [t.id for t in targets if isinstance(t, ast.Name)]


def is_literal(node: ast.AST | None) -> bool:
    """A number, string, bool or None, or a tuple of them."""
    if isinstance(node, ast.Tuple):
        return all(is_literal(item) for item in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return is_literal(node.operand)
    return isinstance(node, ast.Constant)


def module_binding_rule(tree: ast.Module) -> list[Violation]:
    """Module-level and class-level names are bound by plain statements: no ``del`` of one (the Triton interpreter
    fills a kernel module's missing names with its own, numpy's ``np`` among them, so ``np = 0; del np`` handed a
    kernel numpy under a name the checks had read as a constant) and no ``:=`` outside functions (a class body's
    ``(box := [])`` was a list every block shared, out of sight of the class-constant rule)."""
    found = []
    for node in _outside_functions(tree):
        if isinstance(node, ast.Delete):
            found += [Violation("not_allowed", node.lineno, f"del {ast.unparse(target)} unbinds a module-level name: "
                                "keep module-level names bound (delete locals only)")
                      for target in node.targets if isinstance(target, ast.Name)]
        elif isinstance(node, ast.NamedExpr):
            found.append(Violation("stateful", node.lineno, f"{ast.unparse(node)[:60]}: := outside a function binds "
                                   "a module or class name out of sight; use a plain assignment"))
    return found


ITERATOR_BUILTINS = frozenset({"enumerate", "zip", "reversed", "iter", "map", "filter"})
"""Builtins that return an iterator: it keeps its position, so one kept in a variable or on ``self`` counts calls."""
CONSUMERS = frozenset({"list", "tuple", "dict", "frozenset", "set", "sorted", "sum", "min", "max", "any", "all"})


def iterator_rule(tree: ast.Module) -> list[Violation]:
    """An iterator (``enumerate(...)``, a generator expression) is used where it is made, by a ``for`` or a consuming
    builtin, never kept: ``self.calls = enumerate(range(1 << 40))`` in ``__init__`` counted forward's calls. No
    generator functions either (``yield`` keeps a frame alive between calls)."""
    used = [node.iter for node in ast.walk(tree) if isinstance(node, (ast.For, ast.comprehension))]
    used += [arg for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
             and node.func.id in CONSUMERS | ITERATOR_BUILTINS for arg in node.args]
    used += [branch for node in list(used) if isinstance(node, ast.IfExp) for branch in (node.body, node.orelse)]
    used = {id(node) for node in used}
    found = [Violation("stateful", node.lineno, "yield makes a generator, whose frame keeps state between calls; "
                       "return values instead")
             for node in ast.walk(tree) if isinstance(node, (ast.Yield, ast.YieldFrom))]
    for node in ast.walk(tree):
        iterator = isinstance(node, ast.GeneratorExp) or (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                                                          and node.func.id in ITERATOR_BUILTINS)
        if iterator and id(node) not in used:
            found.append(Violation("stateful", node.lineno, f"{ast.unparse(node)[:60]} makes an iterator that is kept: "
                                   "loop over it where it is made (an iterator on self counted calls)"))
    return found


def comprehension_rule(tree: ast.Module) -> list[Violation]:
    """A comprehension's variable does not reuse a module-level name: the comprehension has a scope of its own, so
    the name still means the module's object outside it, while the checks took it for the function's local
    (``[torch for torch in (0,)]`` hid every later ``torch.`` path of the function from them)."""
    module_names = set(module_aliases(tree)) | {name for statement in tree.body for name in _bound_by(statement)}
    return [Violation("not_allowed", n.lineno, f"the comprehension variable {n.id} hides the module-level name "
                      f"{n.id}: name it something else")
            for node in ast.walk(tree) if isinstance(node, ast.comprehension)
            for n in ast.walk(node.target) if isinstance(n, ast.Name) and n.id in module_names]


def _bound_by(statement: ast.stmt) -> list[str]:
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [statement.name]
    return [t.id for target in _assign_targets(statement) for t in ast.walk(target) if isinstance(t, ast.Name)]


def _outside_functions(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node of the module and class bodies, not descending into functions and lambdas."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack += [child for child in ast.iter_child_nodes(node)
                  if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]


def reference_rule(tree: ast.Module) -> list[Violation]:
    """No use of the task's ``Model`` (the reference) or its ``get_inputs``."""
    return [Violation("reference_access", node.lineno, f"{node.id} belongs to the reference program; "
                      "the solution must not use it")
            for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in {"Model", "get_inputs"}]


def annotation_rule(tree: ast.Module) -> list[Violation]:
    """Annotations only name types: without postponed evaluation they run when the definition does (at import),
    where a call in one (``x: exec(...)``) would run code that no other check reads."""
    return [Violation("not_allowed", node.lineno, f"annotation {ast.unparse(annotation)[:60]}: annotations may only "
                                                  "name types (no calls, lambdas or assignments)")
            for annotation in _annotations(tree) for node in ast.walk(annotation)
            if isinstance(node, (ast.Call, ast.Lambda, ast.NamedExpr))]


def _annotations(tree: ast.Module) -> list[ast.expr]:
    """Every annotation: of arguments, of returns, of annotated assignments."""
    annotations = [a.annotation for f in _walk_functions(tree) for a in arguments(f.args) if a.annotation]
    annotations += [f.returns for f in _walk_functions(tree) if f.returns]
    return annotations + [n.annotation for n in ast.walk(tree) if isinstance(n, ast.AnnAssign)]


def arguments(args: ast.arguments) -> list[ast.arg]:
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a)]


DEFAULT_RULES = (try_except_rule, monkeypatch_rule, subclass_rule, state_rule, class_state_rule, default_rule,
                 class_value_rule, module_binding_rule, iterator_rule, comprehension_rule, reference_rule,
                 annotation_rule)
"""Rules that hold on every target; the imports rule and the allow-list take the target's languages."""
KNOWN_HACKS = {
    "framework_compute": "calls the reference op or any framework compute (torch/F ops, tensor methods and dunders, "
                         "tensor arithmetic, nn layers), however it is bound first (module level, __init__, a "
                         "rebound name)",
    "not_allowed": "anything else off the allow-list: unidentified calls, unknown builtins and modules, decorators, "
                   "nested definitions",
    "native_framework_call": "the C++/CUDA 'kernel' links to ATen/torch compute (torch::relu, a namespace alias, a "
                             "macro), judged from the compiled object's undefined symbols",
    "native_escape": "native code links to threads, processes, files, signals or syscalls (pthread_create, fopen, "
                     "kill, syscall), or changes the OpenMP thread count",
    "native_asm": "native code contains inline assembly (found in the preprocessed source)",
    "try_fallback": "falls back to the reference in try/except",
    "monkeypatch": "monkeypatches timers, synchronize or comparison functions",
    "imports": "threads, processes, timers, ctypes, gc/inspect, or the reference module via imports",
    "forbidden_attribute": "extra streams, frame/global introspection, dunder hooks, torch internals and the modules "
                           "torch re-exports (torch.os, torch.importlib)",
    "lazy_tensor": "returns a lazy tensor subclass",
    "stateful": "returns a cached output kept in module or global state, or mutates a container across calls",
    "reference_access": "reads or instantiates the reference Model",
    "output": "prints a fake score line",
    "early_exit": "exits early with os._exit/sys.exit",
    "dynamic_code": "hides code from the checks with eval/exec/getattr, however renamed (run = eval)",
    "introspection": "reads globals()/locals()/vars() to find the reference",
    "file_access": "reads the reference file or writes results",
}
