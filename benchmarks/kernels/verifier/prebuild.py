"""Predict a solution's native builds from its source alone, so that a cold evaluation starts its
runner once instead of twice (once to learn the specs, once to run).

Only calls to ``load_cpp``/``load_inline`` whose arguments fold to constants (literals, module-level
names bound to literals, concatenation, lists, tuples, dicts) are predicted; nothing is executed.
A wrong or missing prediction costs nothing but time: the runner still asks for what it needs. A
certain prediction (a module-level call) that fails to build is reported without starting the runner.
"""

from __future__ import annotations

import ast
from typing import Any

from sandboxes.targets.base import ExtensionSpec
from sandboxes.targets.native import SPEC_BUILDERS


class NotConstant(Exception):
    """The expression depends on something only known at run time."""


def _fold(node: ast.AST, names: dict[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_fold(item, names) for item in node.elts]
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {_fold(k, names): _fold(v, names) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _fold(node.left, names) + _fold(node.right, names)
    raise NotConstant(ast.dump(node)[:60])


def _loader_name(call: ast.Call) -> str | None:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else (func.attr if isinstance(func, ast.Attribute) else None)
    return name if name in SPEC_BUILDERS else None


def predicted_specs(source: str) -> list[tuple[ExtensionSpec, bool]]:
    """(spec, certain) for each statically evident native build in ``source``.

    ``certain`` marks calls that are module-level statements (``lib = load_cpp(...)``): importing the
    solution runs them unconditionally, so their build failure is the solution's compile error.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names: dict[str, Any] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            try:
                names[statement.targets[0].id] = _fold(statement.value, names)
            except NotConstant:
                pass
    top_level = {id(s.value) for s in tree.body if isinstance(s, (ast.Assign, ast.Expr))}
    predictions = []
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _loader_name(n)):
        try:
            args = [_fold(a, names) for a in call.args]
            kwargs = {k.arg: _fold(k.value, names) for k in call.keywords if k.arg}
            predictions.append((SPEC_BUILDERS[_loader_name(call)](*args, **kwargs), id(call) in top_level))
        except (NotConstant, TypeError, ValueError, AttributeError):
            continue
    return predictions
