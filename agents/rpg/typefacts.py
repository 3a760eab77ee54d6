"""Plain type facts from Python source, for the resolver: what class a name holds where the code says so.

Only what the source makes plain is taken: an assignment from a call (``x = Foo()``), an annotation
(``x: Foo``, ``def f(x: Foo)``, ``Optional[Foo]``, ``Foo | None``, ``"Foo"``), and a copy of a name
whose type is known (``self.app = app`` for a parameter ``app: Flask``). A name bound to two different
types is ambiguous and dropped. Types stay dotted expressions (``Foo``, ``models.Foo``); the resolver
decides whether they name a class.
"""

from __future__ import annotations

import ast

AMBIGUOUS = ""
_WRAPPERS = frozenset({"Optional", "typing.Optional", "ClassVar", "typing.ClassVar", "Final", "typing.Final",
                       "Annotated", "typing.Annotated"})


def _dotted(expr: ast.AST) -> str:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        base = _dotted(expr.value)
        return f"{base}.{expr.attr}" if base else ""
    return ""


def annotation_type(expr: ast.AST | None) -> str:
    """The class an annotation names, or ``""`` (unions of several classes and generics give ``""``)."""
    if expr is None:
        return ""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        try:
            return annotation_type(ast.parse(expr.value, mode="eval").body)
        except SyntaxError:
            return ""
    if isinstance(expr, ast.Subscript) and _dotted(expr.value) in _WRAPPERS:
        inner = expr.slice.elts[0] if isinstance(expr.slice, ast.Tuple) and expr.slice.elts else expr.slice
        return annotation_type(inner)
    if isinstance(expr, ast.Subscript):  # Generic[T] is a Generic
        return _dotted(expr.value)
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        sides = [s for s in (expr.left, expr.right) if not (isinstance(s, ast.Constant) and s.value is None)]
        return annotation_type(sides[0]) if len(sides) == 1 else ""
    return _dotted(expr)


def value_type(expr: ast.AST | None, known: dict[str, str]) -> str:
    """The type of an assigned value: a constructor-like call, or a name whose type is known."""
    if isinstance(expr, ast.Call):
        return _dotted(expr.func)
    if isinstance(expr, ast.Name):
        return known.get(expr.id, "")
    return ""


def bind(table: dict[str, str], name: str, type_expr: str) -> None:
    """Record ``name: type_expr``; a second, different type makes the name ambiguous."""
    if not type_expr:
        return
    if table.get(name, type_expr) != type_expr:
        table[name] = AMBIGUOUS
    else:
        table[name] = type_expr


def parameter_types(args: ast.arguments) -> dict[str, str]:
    """Annotated parameters of a function."""
    table: dict[str, str] = {}
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        bind(table, arg.arg, annotation_type(arg.annotation))
    return table


Assignment = tuple[ast.AST, ast.AST | None, ast.AST | None]
"""``(target, value, annotation)`` of one simple assignment."""


def assignment(node: ast.AST) -> Assignment | None:
    """``node`` as a simple assignment (one target, or annotated), else ``None``."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        return node.targets[0], node.value, None
    if isinstance(node, ast.AnnAssign):
        return node.target, node.value, node.annotation
    return None


def collect(statement: ast.AST, local: dict[str, str], attributes: dict[str, str] | None) -> None:
    """Add the plain types bound under ``statement``: names into ``local``, ``self.x`` into ``attributes``."""
    record([found for node in ast.walk(statement) if (found := assignment(node))], local, attributes)


def record(found: list[Assignment], local: dict[str, str], attributes: dict[str, str] | None) -> None:
    """Add the plain types of these assignments (in source order): see :func:`collect`."""
    for target, value, annotation in found:
        type_expr = annotation_type(annotation) or value_type(value, local)
        if isinstance(target, ast.Name):
            bind(local, target.id, type_expr)
        elif (attributes is not None and isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
              and target.value.id == "self"):
            bind(attributes, target.attr, type_expr)


def plain(table: dict[str, str]) -> dict[str, str]:
    """The table without ambiguous names."""
    return {name: type_expr for name, type_expr in table.items() if type_expr != AMBIGUOUS}
