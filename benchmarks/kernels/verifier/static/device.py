"""Device code: the bodies of Triton kernels and of NPU kernels (and everything only they reach).

A kernel body may use its arguments and locals, the kernel language (``tl.*`` / the NPU language),
``math``, module-level constants, the solution's own device functions and classes, and a few
builtins. Nothing else reaches it: no torch, no module-level tensors or libraries, no introspection.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import math
import types
from typing import Any, Iterator

from benchmarks.kernels.verifier.static import allowlist as allow
from benchmarks.kernels.verifier.static.analysis import Analysis
from benchmarks.kernels.verifier.static.expressions import is_dunder
from benchmarks.kernels.verifier.static.kinds import Tag
from benchmarks.kernels.verifier.static.symbols import npu_language_attributes, own_attributes
from benchmarks.kernels.verifier.static_rules import arguments, class_level_names, is_literal

LANGUAGE_PATHS = {"triton": ("triton.", "math."), "npu": (allow.NPU_LANG + ".", "math.")}
LANGUAGE_MODULES = {"triton": ("triton", "triton.language", "math"), "npu": (allow.NPU_LANG, "math")}
"""The modules a kernel's dotted paths may pass through (by ``__name__``; submodules of the last-but-one included)."""
OBJECT_HOMES = {LANGUAGE_MODULES["triton"]: ("triton.language", "triton._C.libtriton.ir", "math"),
                LANGUAGE_MODULES["npu"]: ("sandboxes.targets.npu.", "math")}
"""Where the functions and classes a kernel's dotted paths reach may be defined: the language's own modules (and, for
Triton, the IR enums it re-exports for its arguments, ``tl.PropagateNan``)."""
MODULE_KINDS = frozenset({Tag.SCALAR, Tag.FUNC, Tag.CLASS, Tag.TRITON, Tag.NPU_KERNEL, Tag.PATH})
"""Kinds of module-level names a kernel body may read."""


class DeviceCheck:
    """Checks the device units of one flavour (``triton`` or ``npu``)."""

    def __init__(self, analysis: Analysis, flavour: str) -> None:
        self.analysis = analysis
        self.index = analysis.index
        self.flavour = flavour
        self.npu_attributes = (npu_language_attributes() | own_attributes(analysis.index.tree) | allow.CONTAINER_METHODS
                               if flavour == "npu" else frozenset())

    def flag(self, node: ast.AST, rule: str, message: str) -> None:
        self.analysis.flag(node, rule, message)

    def check(self, names: set[str]) -> None:
        """Check every function of ``names`` and every method of its classes."""
        for name in sorted(names):
            units = [self.index.functions[name]] if name in self.index.functions else list(
                self.index.methods(name).values())
            for unit in units:
                self.check_unit(unit, method=name not in self.index.functions)

    def check_unit(self, function: ast.FunctionDef, method: bool = False) -> None:
        locals_ = {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        locals_ |= {a.arg for n in ast.walk(function) if isinstance(n, (ast.FunctionDef, ast.Lambda))
                    for a in arguments(n.args)}
        positional = [*function.args.posonlyargs, *function.args.args]
        own = positional[0].arg if method and positional else None
        static = _constexpr_parameters(function) | (set(self.index.bindings) - locals_)
        calls = {id(n.func) for n in _body_nodes(function) if isinstance(n, ast.Call)}
        loop_bounds = {id(n.iter) for n in _body_nodes(function) if isinstance(n, ast.For)}
        for node in _body_nodes(function):
            if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) and not (
                    own and isinstance(node.value, ast.Name) and node.value.id == own):
                self.flag(node, "stateful", f"assigning {ast.unparse(node)}: a kernel sets attributes of its own "
                                            f"object only ({own or 'self'}.name in a method of your class); an "
                                            "attribute hung on a language object or a parameter was shared by every "
                                            "block and program")
            if isinstance(node, ast.BinOp) and any(_text(side) for side in (node.left, node.right)):
                self.flag(node, "not_allowed", "string formatting is not kernel code (the interpreter prints a value's "
                                               "data into the text, which Python can then compute on)")
            elif self.flavour == "triton" and _data_builtin_on_values(node, locals_, static, loop_bounds):
                self.flag(node, "not_allowed", f"{node.func.id}() in a Triton kernel takes constants and constexpr "
                                               "values only (on loaded values it turns the data into Python numbers "
                                               "for Python to compute on); use .to(), tl.max, tl.min, tl.sum")
            elif self.flavour == "triton" and _builtin_held(node, calls, locals_):
                self.flag(node, "not_allowed", f"{node.id} is a builtin a Triton kernel only calls by name")
            elif self.flavour == "triton" and (parameter := self.value_for_constexpr(node, static)):
                self.flag(node, "not_allowed", f"{parameter} of {node.func.id} is a constexpr parameter, given a value "
                                               "computed in the kernel (the interpreter passes it on as data for "
                                               "Python to compute on; the compiler refuses it)")
            elif self.flavour == "triton" and (python := _python_on_values(node, static, self.index, calls)):
                self.flag(node, "not_allowed", f"{python} is Python computing on the kernel's data, which only the "
                                               "Triton interpreter runs (the compiler refuses it); use the language")
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in locals_:
                self.name(node)
            elif isinstance(node, ast.Attribute):
                self.attribute(node)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                self.flag(node, "imports", "imports belong at module level")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.flag(node, "not_allowed", "define helper functions and classes at module level")
            elif isinstance(node, ast.Call):
                self.mutation(node, locals_)
            elif isinstance(node, ast.JoinedStr):
                self.flag(node, "not_allowed", "f-strings are not kernel code (the interpreter prints a value's data "
                                               "into one, which Python can then compute on)")

    def name(self, node: ast.Name) -> None:
        name = node.id
        if is_dunder(name):
            self.flag(node, "forbidden_attribute", f"{name} reaches interpreter internals; kernels may not use it")
        elif name in self.index.functions or name in self.index.classes:
            return
        elif name in self.analysis.module_env or name in self.index.bindings:
            kind = self.analysis.module_env.get(name)
            if name not in self.index.surely_bound:
                self.flag(node, "not_allowed", f"{name} is bound only inside a module-level if, loop or with: a kernel "
                                               "may read module-level names every run of the module binds (the Triton "
                                               "interpreter fills unbound ones with its own, numpy's np among them)")
            elif kind is None or kind.tag not in MODULE_KINDS:
                self.flag(node, "not_allowed", f"{name} is a module-level {kind.tag.value if kind else 'value'}: a "
                                               "kernel may only read constants, its arguments and the kernel language")
            elif kind.tag is Tag.PATH:  # a module-level alias (T = torch) is judged like an import
                self.language_path(node, kind.name)
        elif name in self.index.aliases:
            self.language_path(node, self.index.aliases[name])
        elif name in allow.BANNED_BUILTINS:
            self.flag(node, *allow.BANNED_BUILTINS[name])
        elif name not in allow.DEVICE_BUILTINS and hasattr(builtins, name):
            self.flag(node, "not_allowed", f"the builtin {name} may not be used inside a kernel")
        elif not hasattr(builtins, name):
            self.flag(node, "not_allowed", f"{name} is defined nowhere in the solution (the Triton interpreter puts "
                                           "its own names, numpy's np among them, into a kernel's module): a kernel "
                                           "may only read its arguments, locals, the solution's names and the language")

    def value_for_constexpr(self, node: ast.AST, static: set[str]) -> str:
        """The constexpr parameter of one of the solution's own device functions that this call gives a value that
        is not static ('' when none, or when ``node`` is no such call)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.index.functions):
            return ""
        helper = self.index.functions[node.func.id].args
        constexpr = _constexpr_parameters(self.index.functions[node.func.id])
        given = dict(zip((a.arg for a in [*helper.posonlyargs, *helper.args]), node.args))
        given.update((k.arg, k.value) for k in node.keywords if k.arg)
        return next((name for name, value in given.items() if name in constexpr and not _static(value, static)), "")

    def language_path(self, node: ast.AST, path: str) -> None:
        if not path.startswith(LANGUAGE_PATHS[self.flavour]) and path not in ("triton", "math"):
            self.flag(node, "not_allowed", f"{path} cannot be used inside a {self.flavour} kernel: only the kernel "
                                           "language, math and your own device code can")
        elif (module := foreign_module(path, LANGUAGE_MODULES[self.flavour])) is not None:
            self.flag(node, "not_allowed", f"{path} reaches {module} through the kernel language's own imports or "
                                           "internals: a kernel may use the language's names, not what it imports")

    def attribute(self, node: ast.Attribute) -> None:
        attr = node.attr
        if isinstance(node.value, ast.Name) and node.value.id in self.index.classes and not self.class_constant(
                node.value.id, attr):
            self.flag(node, "stateful", f"{node.value.id}.{attr} is class-level data that is not a constant: a kernel "
                                        "may read its own classes' methods and constant numbers only (host objects "
                                        "kept there reached kernels)")
        if is_dunder(attr) or attr.startswith("_"):
            self.flag(node, "forbidden_attribute", f"attribute {attr} reaches interpreter or simulator internals; "
                                                   "use the kernel language")
        elif (path := self.index.resolve(node.value)) is not None:
            self.language_path(node, f"{path}.{attr}")
        elif self.flavour == "npu" and attr in allow.NPU_RESERVED_ATTRIBUTES:
            self.flag(node, "npu_internals", f"attribute {attr!r} is the raw buffer behind a GM address (simulator "
                                             "internals); move data with DataCopy and rename an attribute of yours")
        elif self.flavour == "npu" and attr not in self.npu_attributes:
            self.flag(node, "not_allowed", f"attribute {attr!r} is neither the kernel language's nor one your classes "
                                           "define: a kernel works through the NPU API (host objects that reached "
                                           "kernels were computed on with numpy, uncharged)")
        elif self.flavour == "triton" and attr not in allow.TRITON_TENSOR_ATTRIBUTES and not _on_dtype(node):
            self.flag(node, "not_allowed", f"attribute {attr!r} of a Triton value is not on the allow-list "
                                           "(tensor methods such as .to(), .dtype, .shape are)")

    def class_constant(self, cls: str, attr: str) -> bool:
        """True for a method of ``cls`` or a class-level name bound to literal numbers, strings or tuples of them."""
        for statement in self.index.classes[cls].body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name == attr:
                return True
            if attr in class_level_names(statement):
                return is_literal(statement.value)
        return True  # not defined in the class body (an inherited method, a TilingData field's name)

    def mutation(self, node: ast.Call, locals_: set[str]) -> None:
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr in allow.MUTATORS and isinstance(func.value, ast.Name)
                and func.value.id not in locals_ and func.value.id in self.index.bindings):
            self.flag(node, "stateful", f"{func.value.id}.{func.attr}() changes module-level state from a kernel "
                                        "(caches kept across calls are known hacks)")


def foreign_module(path: str, modules: tuple[str, ...]) -> str | None:
    """The first module on ``path`` that is none of ``modules`` (``triton.language.core.builtins`` reaches Python's
    builtins, ``triton.runtime.interpreter.np`` numpy, ``triton.knobs`` os and subprocess), found by following the
    path's attributes from the longest of ``modules`` it starts with; None when every step stays in the language."""
    base = max((m for m in modules if path == m or path.startswith(m + ".")), key=len, default=None)
    if base is None:
        return None  # outside the language altogether: refused by its prefix
    try:
        found = importlib.import_module(base)
    except ImportError:
        return None  # not installed here: the import itself fails when the solution loads
    for name in path[len(base) + 1:].split(".") if path != base else []:
        try:
            found = getattr(found, name, None)
        except Exception as error:  # a property that raises here (tl.target_info.driver.active without a GPU)
            return f"{name} (reading it raised {type(error).__name__})"
        if found is None:
            return None
        if isinstance(found, types.ModuleType):
            if not _language_module(found.__name__, modules):
                return found.__name__
        elif (home := _home(found)) is not None:
            if not home.startswith(OBJECT_HOMES[modules]) and home != modules[0]:
                return home  # a function or class the language imported (triton.language.extra.module_from_spec)
        elif not _plain_value(found):
            return f"{name}, a {type(found).__name__} of the language's internals"  # tl.extra.modules: sys.modules
    return None


def _plain_value(value: object) -> bool:
    """A number, string, dtype or enum member a kernel may read off the language (``tl.float32``, ``math.pi``)."""
    return isinstance(value, (int, float, str, bool)) or type(value).__module__.startswith(("triton.", "enum")) or (
        type(value).__module__.startswith(allow.NPU_LANG.rsplit(".", 1)[0]))


def _home(value: object) -> str | None:
    """The module a function or class was defined in (None for other values: numbers, dtypes, enum members)."""
    if inspect.isfunction(value) or inspect.isclass(value) or inspect.isbuiltin(value):
        return getattr(value, "__module__", None)
    return None


def _language_module(name: str, modules: tuple[str, ...]) -> bool:
    """``triton`` itself is allowed only as the root (its submodules other than the language are not)."""
    return name in modules or any(name.startswith(m + ".") for m in modules[1:])


def _on_dtype(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Attribute) and node.value.attr in ("dtype", "type")


LANGUAGE_BUILTINS = frozenset({"range", "min", "max", "abs"})
"""Builtins a Triton kernel may apply to its values, because the language maps them: ``range`` as a loop's bounds,
``abs``, ``min``/``max`` of several values. Every other builtin takes constants and constexpr values only: on a loaded
value it turns the data into Python numbers (``int(tl.load(p))``, ``len(range(tl.load(p)))``, ``max(values)``) for
Python to compute on, which only the interpreter allows."""


def _data_builtin_on_values(node: ast.AST, locals_: set[str], static: set[str], loop_bounds: set[int]) -> bool:
    """A builtin call that would turn a Triton value's data into Python numbers (``loop_bounds``: the ids of the
    ``range`` calls that are a ``for`` loop's iterable)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or node.func.id in locals_:
        return False
    name = node.func.id
    if name not in allow.DEVICE_BUILTINS or _static_arguments(node, static):
        return False
    if name in ("min", "max"):
        return len(node.args) == 1 or any(isinstance(a, ast.Starred) for a in node.args) or bool(node.keywords)
    if name == "range":
        return id(node) not in loop_bounds
    return name not in LANGUAGE_BUILTINS


def _builtin_held(node: ast.AST, calls: set[int], locals_: set[str]) -> bool:
    """A builtin named other than as the function of a call (``f = int``, then ``f(tl.load(p))``)."""
    return (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in locals_
            and node.id in allow.DEVICE_BUILTINS and id(node) not in calls)


def _python_on_values(node: ast.AST, static: set[str], index: Any, calls: set[int]) -> str:
    """Python computing on a Triton value's data, in the interpreter only: an index taken from a value
    (``range(2**32)[bits]``, ``table[tl.load(p)]``: the interpreter's tensors convert to a Python int), ``math``
    applied to values (``math.fsum`` of a row), or a comprehension (the compiler has none; the interpreter runs it as
    Python over the values), or a ``math`` function held other than as a call's function (``f = math.fsum``, then
    ``f(values)``). '' when ``node`` is none of these."""
    if isinstance(node, ast.Subscript) and not _static(node.slice, static):
        return f"indexing with {ast.unparse(node.slice)}, a value computed in the kernel"
    if (isinstance(node, ast.Call) and (path := index.resolve(node.func)) is not None and path.startswith("math.")
            and not _static_arguments(node, static)):
        return f"{path}() on values computed in the kernel"
    if (isinstance(node, (ast.Name, ast.Attribute)) and id(node) not in calls and (path := index.resolve(node))
            and path.startswith("math.") and callable(getattr(math, path.removeprefix("math."), None))):
        return f"{path} named other than as a call's function"
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return "a comprehension"
    return ""


def _text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)))


def _static(node: ast.AST, static: set[str]) -> bool:
    """True when ``node`` is built from constants, constexpr parameters, module-level constants and shapes only."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id in static
    if isinstance(node, ast.Attribute):
        return node.attr in ("shape", "numel") and _static_root(node.value, static)
    if isinstance(node, ast.Subscript):
        return _static(node.value, static) and _static(node.slice, static)
    if isinstance(node, ast.Call):
        return (isinstance(node.func, ast.Name) and node.func.id in allow.DATA_BUILTINS
                and all(_static(arg, static) for arg in node.args) and not node.keywords)
    return all(_static(child, static) for child in ast.iter_child_nodes(node)
               if not isinstance(child, (ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.expr_context)))


def _constexpr_parameters(function: ast.FunctionDef) -> set[str]:
    """The parameters of a device function annotated ``tl.constexpr`` (their values are known when it compiles)."""
    return {a.arg for a in arguments(function.args) if a.annotation is not None
            and "constexpr" in ast.unparse(a.annotation)}


def _static_arguments(call: ast.Call, static: set[str]) -> bool:
    """Whether every argument of ``call``, keywords included, is static (:func:`_static`)."""
    return all(_static(arg, static) for arg in [*call.args, *(k.value for k in call.keywords)])


def _static_root(node: ast.AST, static: set[str]) -> bool:
    """A shape is static whatever it is read from (a tensor's shape is known when the kernel is compiled)."""
    return isinstance(node, ast.Name) or _static(node, static)


def _body_nodes(function: ast.FunctionDef) -> Iterator[ast.AST]:
    """Every node of the body and defaults (annotations are not evaluated by the kernel languages)."""
    roots = [*function.body, *function.args.defaults, *(d for d in function.args.kw_defaults if d is not None)]
    for root in roots:
        yield from ast.walk(root)


def check_device(analysis: Analysis) -> None:
    """Run the device checks of every flavour the module uses (violations land on ``analysis``)."""
    for flavour, names in analysis.device.items():
        DeviceCheck(analysis, flavour).check(names)
