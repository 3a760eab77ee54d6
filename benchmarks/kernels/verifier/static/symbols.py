"""The solution's module-level names: imports, bindings, functions, classes, device kernels, and
which functions host code reaches and which only device code does.

Device roots are functions decorated with ``triton.jit`` (and ``autotune``/``heuristics``) or the NPU
language's ``kernel``, recognised by the import they resolve to, never by their spelling.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator

from benchmarks.kernels.verifier.static.allowlist import NPU_LANG

TRITON_DECORATORS = frozenset({"triton.jit", "triton.autotune", "triton.heuristics"})
NPU_DECORATOR = f"{NPU_LANG}.kernel"
Function = ast.FunctionDef | ast.AsyncFunctionDef


@lru_cache(maxsize=1)
def npu_language_names() -> frozenset[str]:
    """The names ``from sandboxes.targets.npu.lang import *`` binds."""
    from sandboxes.targets.npu import lang

    return frozenset(lang.__all__)


@lru_cache(maxsize=1)
def npu_language_attributes() -> frozenset[str]:
    """The attributes of the NPU kernel language's classes and objects (methods, enum members, parameter fields),
    without those every ``str`` or ``int`` has (TPosition is a ``str`` enum)."""
    from sandboxes.targets.npu import lang

    plain = set(dir(str)) | set(dir(int)) | set(dir(float))
    names: set[str] = set()
    for value in (getattr(lang, name) for name in lang.__all__):
        if inspect.isclass(value):
            names |= {a for a in dir(value) if not a.startswith("_") and a not in plain}
            names |= set(getattr(value, "__annotations__", {}))
            names |= {f.name for f in dataclasses.fields(value)} if dataclasses.is_dataclass(value) else set()
    return frozenset(names)


def own_attributes(tree: ast.Module) -> frozenset[str]:
    """Attribute names the solution defines: its classes' methods, class-level names and annotated fields, and
    every ``obj.name = ...`` it assigns, except the ways out of torch into Python data (defining ``self.numpy`` must
    not open ``.numpy()`` on a host tensor: torch's own methods on one are seen by the runtime tripwire, numpy is not)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(statement.name)
                elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                    names.add(statement.target.id)
                elif isinstance(statement, ast.Assign):
                    names |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return frozenset(names - TENSOR_EXITS)


TENSOR_EXITS = frozenset({"numpy", "tolist", "item", "data", "storage", "untyped_storage", "data_ptr", "cpu",
                          "detach", "clone", "contiguous"})
"""Tensor methods that hand a tensor's data to Python or numpy (where no tripwire sees the compute)."""


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


@dataclass
class ModuleIndex:
    """Everything the checks need to know about the module's top level."""

    tree: ast.Module
    aliases: dict[str, str] = field(default_factory=dict)
    """Local name -> imported dotted path (``F`` -> ``torch.nn.functional``)."""
    functions: dict[str, Function] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    bindings: dict[str, list[ast.AST]] = field(default_factory=dict)
    """Module-level names assigned by statements (the value nodes)."""
    device: dict[str, str] = field(default_factory=dict)
    """Device root function -> ``triton`` or ``npu``."""
    star_imports: list[tuple[int, str]] = field(default_factory=list)

    first_bound: dict[str, int] = field(default_factory=dict)
    """Module-level name -> line of the first statement that binds it (other than an import)."""
    surely_bound: set[str] = field(default_factory=set)
    """Module-level names some top-level statement binds whenever the module runs (not only inside an ``if``, a
    loop or a ``with``): the Triton interpreter fills a kernel module's unbound names with its own, numpy's among
    them."""

    def resolve(self, node: ast.AST, line: int | None = None) -> str | None:
        """The imported dotted path an expression names (``F.relu`` -> ``torch.nn.functional.relu``);
        with ``line``, as it stands when the module's code reaches that line (decorators, top-level code)."""
        text = dotted(node)
        if text is None:
            return None
        head, _, rest = text.partition(".")
        if head not in self.aliases or self.shadowed(head, line):
            return None
        return self.aliases[head] + ("." + rest if rest else "")

    def shadowed(self, name: str, line: int | None = None) -> bool:
        """True when a module-level function, class or assignment rebinds an imported name (before ``line``)."""
        bound = self.first_bound.get(name)
        return bound is not None and (line is None or bound < line)

    def methods(self, cls: str) -> dict[str, Function]:
        """Methods defined in class ``cls`` (not inherited)."""
        node = self.classes.get(cls)
        return {s.name: s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))} if node else {}

    def own_bases(self, cls: str) -> list[str]:
        """Bases of ``cls`` that are classes of this module defined before it (a later one is not bound yet when
        the class statement runs, so bases never form a cycle)."""
        node = self.classes.get(cls)
        return [b.id for b in node.bases if isinstance(b, ast.Name) and b.id in self.classes
                and self.classes[b.id].lineno < node.lineno] if node else []

    def base_paths(self, cls: str) -> list[str]:
        """Imported dotted paths of ``cls``'s bases (``torch.nn.Module``)."""
        node = self.classes.get(cls)
        return [p for p in (self.resolve(b) for b in node.bases) if p] if node else []

    def find_method(self, cls: str, name: str) -> tuple[str, Function] | None:
        """(defining class, method) for ``cls.name`` through own bases."""
        seen: set[str] = set()
        stack = [cls]
        while stack:
            current = stack.pop(0)
            if current in seen:
                continue
            seen.add(current)
            if name in self.methods(current):
                return current, self.methods(current)[name]
            stack += self.own_bases(current)
        return None


def build_index(tree: ast.Module) -> ModuleIndex:
    """Scan the top level of ``tree``."""
    index = ModuleIndex(tree)
    for node in tree.body:
        _scan_statement(index, node)
    for name, function in index.functions.items():
        flavour = _device_flavour(index, function)
        if flavour:
            index.device[name] = flavour
    return index


def _scan_statement(index: ModuleIndex, node: ast.stmt) -> None:
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign,
                         ast.AnnAssign)):
        index.surely_bound.update(_bound_names(node))
    if isinstance(node, ast.Import):
        for alias in node.names:
            local = alias.asname or alias.name.split(".")[0]
            index.aliases[local] = alias.name if alias.asname else alias.name.split(".")[0]
    elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
        for alias in node.names:
            if alias.name == "*":
                index.star_imports.append((node.lineno, node.module))
                if node.module == NPU_LANG:
                    index.aliases.update({n: f"{NPU_LANG}.{n}" for n in npu_language_names()})
            else:
                index.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        index.functions[node.name] = node
        index.first_bound.setdefault(node.name, node.lineno)
    elif isinstance(node, ast.ClassDef):
        index.classes[node.name] = node
        index.first_bound.setdefault(node.name, node.lineno)
    else:
        for target, value in _assigned(node):
            index.bindings.setdefault(target, []).append(value)
            index.first_bound.setdefault(target, node.lineno)


def _bound_names(node: ast.stmt) -> Iterator[str]:
    """The names an import, definition or assignment at the top level binds."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield from ((alias.asname or alias.name.split(".")[0]) for alias in node.names if alias.name != "*")
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, ast.Assign) or (isinstance(node, ast.AnnAssign) and node.value is not None):
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            yield from _target_names(target)


def _assigned(node: ast.stmt) -> Iterator[tuple[str, ast.AST]]:
    """Module-level names a statement binds, with the value node (the statement for loops and withs)."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            for name in _target_names(target):
                yield name, node.value
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
        yield node.target.id, node.value if node.value is not None else node
    for child in ast.walk(node) if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) else ():
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
            yield child.id, node


def _target_names(target: ast.AST) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for item in target.elts:
            yield from _target_names(item.value if isinstance(item, ast.Starred) else item)


def decorator_path(index: ModuleIndex, decorator: ast.AST) -> str | None:
    """The dotted path a decorator resolves to (``@triton.autotune(...)`` -> ``triton.autotune``) where it stands."""
    return index.resolve(decorator.func if isinstance(decorator, ast.Call) else decorator, decorator.lineno)


def _device_flavour(index: ModuleIndex, function: Function) -> str | None:
    paths = {decorator_path(index, d) for d in function.decorator_list}
    if paths & TRITON_DECORATORS:
        return "triton"
    if NPU_DECORATOR in paths:
        return "npu"
    return None


def references(node: ast.AST, index: ModuleIndex) -> set[str]:
    """Module-level functions and classes named anywhere inside ``node``."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            and (n.id in index.functions or n.id in index.classes)}


def _units(index: ModuleIndex, name: str) -> list[ast.AST]:
    """The bodies reaching from a module-level name: a function, or every method of a class."""
    if name in index.functions:
        return [index.functions[name]]
    return list(index.methods(name).values()) + [index.classes[name]] if name in index.classes else []


def _closure(index: ModuleIndex, roots: set[str], stop: set[str]) -> set[str]:
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        for unit in _units(index, name):
            stack += [r for r in references(unit, index) if r not in seen and r not in stop]
    return seen


def reachability(index: ModuleIndex) -> tuple[set[str], dict[str, set[str]]]:
    """(names checked as host code, device flavour -> names checked as device code).

    Device code is every function and class reached from a device root. Host code is everything else,
    plus what module-level code and host code reach (a helper used on both sides is checked as both).
    """
    device: dict[str, set[str]] = {}
    for root, flavour in index.device.items():
        device.setdefault(flavour, set()).update(_closure(index, {root}, set()))
    device_only = set().union(*device.values()) if device else set()
    module_refs = set()
    for statement in index.tree.body:
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            module_refs |= references(statement, index)
    host_roots = (set(index.functions) | set(index.classes)) - device_only | module_refs
    host = _closure(index, host_roots - set(index.device), set(index.device))
    return host, device
