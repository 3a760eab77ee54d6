"""Triton launch grids: a lambda (or nested ``def grid(meta)``) that turns launch meta-parameters into sizes.

Triton calls a grid with every launch argument by name, tensors included (and the interpreter hands
``tl.constexpr`` arguments over as they are), so the kinds the rest of the analysis infers cannot say what a grid's
values are. A grid is therefore held to a shape of its own: integer arithmetic over its parameters' items and
plain names, ``triton.cdiv`` / ``next_power_of_2``, ``min``/``max``/``int``/``len`` and size queries. No default
values (a default carries any object of the enclosing code in), no other calls, no other attributes.
"""

from __future__ import annotations

import ast
from typing import Iterator

from benchmarks.kernels.verifier.static import allowlist as allow

GRID_BUILTINS = frozenset({"min", "max", "int", "len", "abs"})
GRID_TRITON = frozenset({"cdiv", "next_power_of_2"})
GRID_NODES = (ast.Return, ast.Assign, ast.Expr, ast.Tuple, ast.List, ast.Constant, ast.Name, ast.Subscript,
              ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Call, ast.Attribute, ast.Slice,
              ast.Load, ast.Store, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.keyword)


def grid_problems(node: ast.Lambda | ast.FunctionDef) -> Iterator[tuple[ast.AST, str]]:
    """Where a grid leaves the shape above, with why."""
    if node.args.defaults or any(d is not None for d in node.args.kw_defaults):
        yield node, "a launch grid may not have default values (they carry objects into the grid)"
    for part in (node.body if isinstance(node, ast.FunctionDef) else [node.body]):
        for inner in ast.walk(part):
            if not isinstance(inner, GRID_NODES) and hasattr(inner, "lineno"):  # (a comprehension's parts: once)
                yield inner, f"a launch grid may not contain {type(inner).__name__}"
            elif isinstance(inner, ast.Attribute) and not _grid_attribute(inner):
                yield inner, (f"attribute {inner.attr!r} in a launch grid: a grid computes sizes (triton.cdiv, "
                              "next_power_of_2, .numel(), .shape, .size(), .stride())")
            elif isinstance(inner, ast.Call) and not _grid_call(inner):
                yield inner, ("a launch grid may call only triton.cdiv / next_power_of_2, min, max, int, len, abs "
                              "and size queries")


def _grid_attribute(node: ast.Attribute) -> bool:
    return node.attr in GRID_TRITON or node.attr in allow.TENSOR_QUERIES or node.attr in ("shape", "ndim")


def _grid_call(node: ast.Call) -> bool:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in GRID_BUILTINS
    return isinstance(func, ast.Attribute) and _grid_attribute(func) and func.attr != "shape"
