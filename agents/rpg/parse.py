"""Python source → code units and raw dependency facts, with the standard ``ast`` module.

Facts are unresolved: imports as (local name, absolute module, symbol), calls and base classes as
dotted expressions (``helper``, ``mod.func``, ``self.run``, ``super().save``, ``Foo().run``), and plain
type facts (see :mod:`agents.rpg.typefacts`): module variables, a function's typed locals and a
class's typed attributes. The resolver turns them into edges once every file is known.
"""

from __future__ import annotations

import ast
import hashlib
from collections import deque
from typing import Iterator
from dataclasses import dataclass, field

from agents.rpg import typefacts

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_ASSIGNMENTS = frozenset({ast.Assign, ast.AnnAssign})


@dataclass
class Unit:
    """A class, function or method with its location and raw facts."""

    qualname: str
    kind: str  # "class" | "function" | "method"
    start: int
    end: int
    signature: str
    docstring: str
    ast_hash: str
    """Hash of the unit's own source lines (nested definitions enter through their hashes): moving the
    unit keeps it, any edit of its own lines changes it."""
    calls: list[str] = field(default_factory=list)
    bases: list[str] = field(default_factory=list)
    types: dict[str, str] = field(default_factory=dict)
    """Typed names: a function's locals and parameters, or a class's attributes (``self.x`` included)."""


@dataclass
class FileFacts:
    """Everything the encoder needs from one file."""

    path: str
    module: str
    lines: int
    docstring: str = ""
    units: list[Unit] = field(default_factory=list)
    imports: list[tuple[str, str, str]] = field(default_factory=list)  # (local, module, symbol or "")
    stars: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    variables: dict[str, str] = field(default_factory=dict)
    """Module-level names with a plain type (``app = Flask()``, ``current_app: Flask = LocalProxy(...)``)."""


def module_name(path: str, package_dirs: set[str]) -> str:
    """Dotted module of ``path``, rooted at the top-most directory chain of packages."""
    parts = (path[:-3] if path.endswith(".py") else path).split("/")
    start = len(parts) - 1
    while start > 0 and "/".join(parts[:start]) in package_dirs:
        start -= 1
    names = parts[start:]
    if names[-1] == "__init__":
        names = names[:-1]
    return ".".join(names)


def parse_file(path: str, source: str, module: str) -> FileFacts:
    """Parse ``source``; raises ``SyntaxError`` (or ``ValueError`` for NUL bytes) on bad input."""
    tree = ast.parse(source, filename=path)
    facts = FileFacts(path, module, source.count("\n") + 1, _doc_line(tree))
    is_package = path.endswith("__init__.py")
    _FactVisitor(facts, is_package, source.split("\n")).visit_body(tree.body, prefix="", owner=None)
    facts.variables = typefacts.plain(facts.variables)
    for unit in facts.units:
        unit.types = typefacts.plain(unit.types)
    return facts


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` (itself included) in :func:`ast.walk`'s breadth-first order, without its
    per-field generators (the walk is most of the cost of reading a file's facts)."""
    todo = deque([node])
    pop, push = todo.popleft, todo.append
    while todo:
        current = pop()
        for name in current._fields:
            value = getattr(current, name, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        push(item)
            elif isinstance(value, ast.AST):
                push(value)
        yield current


def dotted(expr: ast.AST) -> str:
    """``a.b.c`` for attribute chains on a name, ``super().x`` and ``Foo().x`` on calls, else ``""``."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        value = expr.value
        constructed = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id != "super"
        base = f"{value.func.id}()" if constructed else dotted(value)  # Foo().x
        return f"{base}.{expr.attr}" if base else ""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "super":
        return "super()"
    if isinstance(expr, ast.Subscript) and not isinstance(expr.value, ast.Call):  # Generic[T] → Generic
        return dotted(expr.value)
    return ""


def shallow_hash(lines: list[str], unit: Unit, children: list[Unit]) -> str:
    """Hash of a unit's own source lines, without the line spans of its nested units, which enter
    through their own hashes: each line is hashed once, and moving code does not count as changing it.
    (Hashing the text, not ``ast.dump``, costs a fraction; comment edits inside a unit count as changes.)"""
    own, line = [], unit.start
    for child in sorted(children, key=lambda c: c.start):
        own += lines[line - 1:child.start - 1]
        line = max(line, child.end + 1)
    own += lines[line - 1:unit.end]
    return hashlib.sha1("\n".join([*own, *(c.ast_hash for c in children)]).encode()).hexdigest()[:16]


def _doc_line(node: ast.AST) -> str:
    try:
        doc = ast.get_docstring(node) or ""
    except TypeError:
        return ""
    return doc.strip().split("\n\n")[0].replace("\n", " ")[:300]


def _signature(node: ast.AST) -> str:
    if isinstance(node, ast.ClassDef):
        bases = ", ".join(ast.unparse(b) for b in node.bases)
        return f"class {node.name}({bases})" if bases else f"class {node.name}"
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"{prefix} {node.name}({ast.unparse(node.args)}){returns}"[:400]


class _FactVisitor:
    """Walks a module once, collecting units, imports and the calls made inside each unit."""

    def __init__(self, facts: FileFacts, is_package: bool, lines: list[str]):
        self.facts = facts
        self.lines = lines
        self.package = facts.module if is_package else facts.module.rpartition(".")[0]
        self._recorded: dict[int, set[str]] = {}
        """Per calls list (by id), the names already in it: a set kept across statements, so that a body of n
        statements costs n, not n squared (a generated file of 60,000 calls took 46 s)."""

    def visit_body(self, body: list[ast.stmt], prefix: str, owner: Unit | None, in_class: bool = False,
                   klass: Unit | None = None) -> None:
        """Units, calls, imports and type facts of one body; ``klass`` is the class ``self`` refers to."""
        local = owner.types if owner else self.facts.variables
        attributes = klass.types if klass is not None and owner is not klass else None
        for statement in body:
            if isinstance(statement, _DEFS):
                self._unit(statement, prefix, in_class, klass)
            else:
                typefacts.record(self._collect(statement, owner, with_assignments=True), local, attributes)

    def _unit(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, prefix: str, in_class: bool,
              klass: Unit | None) -> None:
        is_class = isinstance(node, ast.ClassDef)
        kind = "class" if is_class else ("method" if in_class else "function")
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        unit = Unit(prefix + node.name, kind, start, node.end_lineno or node.lineno, _signature(node),
                    _doc_line(node), "")
        self.facts.units.append(unit)
        first_child = len(self.facts.units)
        for decorator in node.decorator_list:
            self._collect(decorator, unit)
        if is_class:
            unit.bases = [d for d in (dotted(b) for b in node.bases) if d]
        else:
            unit.types = typefacts.parameter_types(node.args)
            for default in node.args.defaults + [d for d in node.args.kw_defaults if d]:
                self._collect(default, unit)
        self.visit_body(node.body, prefix + node.name + ".", unit, in_class=is_class,
                        klass=unit if is_class else klass)
        depth = unit.qualname.count(".") + 1
        children = [u for u in self.facts.units[first_child:] if u.qualname.count(".") == depth]
        unit.ast_hash = shallow_hash(self.lines, unit, children)

    def _collect(self, node: ast.AST, owner: Unit | None,
                 with_assignments: bool = False) -> list[typefacts.Assignment]:
        """Record the calls (for ``owner``, or the module) and the imports found under ``node``; with
        ``with_assignments``, return its simple assignments too (one walk serves both)."""
        target = owner.calls if owner else self.facts.calls
        seen = self._recorded.get(id(target))
        if seen is None:
            seen = self._recorded[id(target)] = set(target)
        found = []
        for child in walk(node):
            kind = child.__class__  # ast.parse makes no subclasses: an identity test is isinstance, faster
            if kind is ast.Call:
                name = dotted(child.func)
                if name and name != "super" and name not in seen:
                    seen.add(name)
                    target.append(name)
            elif kind is ast.Import or kind is ast.ImportFrom:
                self._import(child)
            elif with_assignments and kind in _ASSIGNMENTS and (assigned := typefacts.assignment(child)):
                found.append(assigned)
        return found

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                self.facts.imports.append((local, alias.name if alias.asname else local, ""))
                if not alias.asname and "." in alias.name:  # `import a.b` binds a, and loads a.b
                    self.facts.imports.append((alias.name, alias.name, ""))
            return
        module = self._absolute(node)
        for alias in node.names:
            if alias.name == "*":
                self.facts.stars.append(module)
            else:
                self.facts.imports.append((alias.asname or alias.name, module, alias.name))

    def _absolute(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = self.package.split(".") if self.package else []
        base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
        return ".".join(base + ([node.module] if node.module else []))
