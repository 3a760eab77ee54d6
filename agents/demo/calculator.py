"""The demo's one tool: evaluate an arithmetic expression safely (numbers, + - * / // % **, parentheses)."""

from __future__ import annotations

import ast
import math
import operator
from typing import Any, Callable

BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
}
UNARY: dict[type, Callable[[Any], Any]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}
MAX_RESULT_BITS = 10_000

CALCULATOR_TOOL = {
    "type": "function",
    "function": {
        "name": "calculator",
        "description": "Evaluate an arithmetic expression with + - * / // % ** and parentheses.",
        "parameters": {
            "type": "object",
            "properties": {"expression": {"type": "string", "description": "e.g. (2 + 3) * 4"}},
            "required": ["expression"],
        },
    },
}


def parse_expression(expression: str) -> ast.expr:
    """The expression's syntax tree; ValueError unless it is plain arithmetic."""
    try:
        tree = ast.parse(expression.strip(), mode="eval").body
    except SyntaxError as error:
        raise ValueError(f"not an arithmetic expression: {expression!r} ({error.msg})") from None
    for node in ast.walk(tree):
        number = isinstance(node, ast.Constant) and type(node.value) in (int, float)
        if not (number or isinstance(node, (ast.BinOp, ast.UnaryOp)) or type(node) in BINARY or type(node) in UNARY):
            raise ValueError(f"not an arithmetic expression: {expression!r} (contains {type(node).__name__})")
    return tree


def calculate(expression: str) -> int | float:
    """The value of ``expression``; ValueError for anything that is not arithmetic or cannot be computed."""
    return _evaluate(parse_expression(expression))


def _evaluate(node: ast.expr) -> int | float:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp):
        return UNARY[type(node.op)](_evaluate(node.operand))
    assert isinstance(node, ast.BinOp)
    left, right = _evaluate(node.left), _evaluate(node.right)
    if isinstance(node.op, ast.Pow) and abs(left) > 1 and abs(right) * math.log2(abs(left)) > MAX_RESULT_BITS:
        raise ValueError(f"{left} ** {right} is too large")
    try:
        return BINARY[type(node.op)](left, right)
    except ZeroDivisionError:
        raise ValueError("division by zero") from None
