"""Parse model-supplied expression text into sympy without evaluating it as Python.

``sympy.sympify`` runs its input through ``eval``: a crafted equation such as
``__import__('os').system(...)`` executes on the host. Here the text is parsed with ``ast`` and the
tree is checked against an allow-list (the caller's names, numbers, arithmetic operators and a fixed set of
functions) and then converted node by node into sympy objects; no string is ever evaluated.
Sizes are bounded too, so a short text cannot make sympy compute an enormous number.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from typing import Any, Callable, Mapping

import sympy as sp

FUNCTIONS: dict[str, Callable[..., sp.Expr]] = {
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh, "asin": sp.asin, "acos": sp.acos, "atan": sp.atan,
    "Abs": sp.Abs, "abs": sp.Abs,
}
"""Functions of one argument an expression may call (``diff`` is handled on its own)."""
CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "E": sp.E}
RESERVED = frozenset({*FUNCTIONS, *CONSTANTS, "diff"})
"""Names an expression gives a fixed meaning; a variable or unknown may not use them."""
BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
}
MAX_TEXT = 4000
MAX_NODES = 600
MAX_EXPONENT = 8
"""|exponent| at most this, and an exponent is a plain number: ``u**2``, ``x**(1/2)``, never ``2**x``."""
MAX_POWER_NESTING = 2
MAX_LITERAL = 10 ** 15
MAX_DERIVATIVE_ORDER = 6
MAX_DIFFERENTIATED_NODES = 24
"""What ``diff`` differentiates is small (``u``, ``u**2``, ``u*v``): high derivatives of long products explode."""
NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")


class ExpressionError(ValueError):
    """The text is not an expression of the allowed form."""


def check_name(name: str, what: str = "name") -> str:
    """``name`` when it can be a variable or unknown (a short identifier, not a function or constant)."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name) or name in RESERVED:
        raise ExpressionError(f"{what} {name!r} must be a short identifier that is not one of "
                              f"{', '.join(sorted(RESERVED))}")
    return name


def parse_expression(text: str, names: Mapping[str, sp.Basic] | None = None) -> sp.Expr:
    """The sympy expression for ``text``: numbers, ``+ - * / **`` (``^`` too), parentheses, the given ``names``,
    ``pi``, ``E``, the :data:`FUNCTIONS` and ``diff(f, x[, order], ...)``; anything else is an ExpressionError."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise ExpressionError(f"an expression must be text of at most {MAX_TEXT} characters")
    try:
        tree = ast.parse(text.strip().replace("^", "**"), mode="eval")  # as sympy reads it: ^ is a power
    except SyntaxError as error:
        raise ExpressionError(f"cannot parse {text!r}: {error.msg}") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ExpressionError(f"expression {text[:60]!r}... has more than {MAX_NODES} parts")
    return _Builder(dict(names or {}), text).build(tree.body, power_depth=0)


def parse_number(value: float | int | str) -> sp.Expr:
    """A constant such as ``0``, ``1.5`` or ``'pi/2'`` (no names) as an exact sympy number where possible."""
    if isinstance(value, bool):
        raise ExpressionError(f"{value!r} is not a number")
    if isinstance(value, int):
        return sp.Integer(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ExpressionError(f"{value!r} is not a finite number")
        return sp.Float(value)
    return parse_expression(value)  # no names given: only numbers, pi, E and functions of them


class _Builder:
    """Turns an allowed syntax tree into sympy, node by node."""

    def __init__(self, names: dict[str, sp.Basic], text: str) -> None:
        self.names = names
        self.text = text

    def fail(self, node: ast.AST, why: str) -> ExpressionError:
        return ExpressionError(f"cannot parse {self.text!r}: {why} ({type(node).__name__} not allowed)")

    def build(self, node: ast.AST, power_depth: int) -> Any:
        if isinstance(node, ast.Constant):
            return self.literal(node)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            operand = self.build(node.operand, power_depth)
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return self.power(node, power_depth)
        if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
            left, right = self.build(node.left, power_depth), self.build(node.right, power_depth)
            if isinstance(node.op, ast.Div) and right == 0:
                raise ExpressionError(f"cannot parse {self.text!r}: division by zero")
            return BINARY[type(node.op)](left, right)
        if isinstance(node, ast.Call):
            return self.call(node, power_depth)
        raise self.fail(node, "only numbers, names, + - * / ** and function calls are allowed")

    def literal(self, node: ast.Constant) -> sp.Expr:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(node, f"{value!r} is not a number")
        if abs(value) > MAX_LITERAL or (isinstance(value, float) and not math.isfinite(value)):
            raise self.fail(node, f"the number {value!r} is too large")
        return sp.Integer(value) if isinstance(value, int) else sp.Float(value)

    def name(self, node: ast.Name) -> sp.Basic:
        if node.id in self.names:
            return self.names[node.id]
        if node.id in CONSTANTS:
            return CONSTANTS[node.id]
        raise self.fail(node, f"unknown name {node.id!r}; known: {', '.join(sorted({*self.names, *CONSTANTS}))}")

    def power(self, node: ast.BinOp, power_depth: int) -> sp.Expr:
        if power_depth >= MAX_POWER_NESTING:
            raise self.fail(node, f"powers nest at most {MAX_POWER_NESTING} deep")
        exponent = self.build(node.right, MAX_POWER_NESTING)  # no power inside an exponent
        if not exponent.is_number or exponent.free_symbols or not exponent.is_real \
                or abs(float(exponent)) > MAX_EXPONENT:
            raise self.fail(node, f"an exponent must be a plain number of size at most {MAX_EXPONENT}")
        return self.build(node.left, power_depth + 1) ** exponent

    def call(self, node: ast.Call, power_depth: int) -> sp.Expr:
        if not isinstance(node.func, ast.Name) or node.keywords:
            raise self.fail(node, "only calls of the allowed functions by name, without keywords")
        name = node.func.id
        if name == "diff":
            return self.derivative(node, power_depth)
        if name not in FUNCTIONS or len(node.args) != 1:
            raise self.fail(node, f"{name!r} is not one of the allowed functions of one argument: "
                            f"{', '.join(sorted(FUNCTIONS))}, diff")
        return FUNCTIONS[name](self.build(node.args[0], power_depth))

    def derivative(self, node: ast.Call, power_depth: int) -> sp.Expr:
        """``diff(f, x)``, ``diff(f, x, 2)``, ``diff(f, x, t)``: variables by name, each optionally with an order."""
        if len(node.args) < 2:
            raise self.fail(node, "diff needs an expression and at least one variable")
        spec: list[Any] = []
        total = 0
        for arg in node.args[1:]:
            if isinstance(arg, ast.Constant) and type(arg.value) is int and spec and isinstance(spec[-1], sp.Symbol):
                order = arg.value
                if not 1 <= order <= MAX_DERIVATIVE_ORDER:
                    raise self.fail(arg, f"a derivative order must be 1..{MAX_DERIVATIVE_ORDER}")
                spec.append(order)
                total += order - 1
                continue
            variable = self.build(arg, power_depth) if isinstance(arg, ast.Name) else None
            if not isinstance(variable, sp.Symbol):
                raise self.fail(arg, "diff's later arguments are variables, each optionally followed by an order")
            spec.append(variable)
            total += 1
        if total > MAX_DERIVATIVE_ORDER:
            raise self.fail(node, f"derivatives of total order above {MAX_DERIVATIVE_ORDER}")
        if sum(1 for _ in ast.walk(node.args[0])) > MAX_DIFFERENTIATED_NODES:
            raise self.fail(node, f"diff takes an expression of at most {MAX_DIFFERENTIATED_NODES} parts")
        return sp.diff(self.build(node.args[0], power_depth), *spec)
