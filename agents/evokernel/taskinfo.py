"""What the agent needs to know about a task without running it: op family and input shape bucket."""

from __future__ import annotations

import ast
import math
import operator
import re
from typing import Any

from memory.qmemory import shape_bucket

FAMILY_PATTERNS = tuple((family, re.compile(pattern, re.IGNORECASE)) for family, pattern in (
    # first match wins; checked against the task name, then the model's source (constructor and forward)
    ("conv", r"conv"),
    ("matmul", r"matmul|matvec|bmm|linear|\bmm\(|einsum|attention|gemm|@"),
    ("pooling", r"pool"),
    ("softmax", r"softmax"),
    ("norm", r"norm"),
    ("scan", r"cumsum|cumprod|scan"),
    ("transpose", r"transpose|permute"),
    ("reduction", r"\b(sum|mean|max|min|argmax|argmin|prod|amax|amin|logsumexp)(_rows)?\b(?!\s*=)|loss"),
))
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv,
        ast.Pow: operator.pow}


def op_family(name: str, source: str) -> str:
    """elementwise, reduction, softmax, norm, matmul, conv, pooling, scan or transpose."""
    for text in (name, _model_source(source)):
        for family, pattern in FAMILY_PATTERNS:
            if pattern.search(text):
                return family
    return "elementwise"


def input_shapes(source: str) -> list[tuple[int, ...]]:
    """Shapes of the tensors ``get_inputs()`` builds, read from the AST (module constants substituted)."""
    tree = ast.parse(source)
    constants = _module_constants(tree)
    shapes: list[tuple[int, ...]] = []
    for node in ast.walk(_function(tree, "get_inputs") or ast.Module(body=[], type_ignores=[])):
        if isinstance(node, ast.Call) and _call_name(node) in ("randn", "rand", "randint", "zeros", "ones", "empty"):
            shape = _shape_args(node, constants)
            if shape:
                shapes.append(shape)
    return shapes


def task_bucket(source: str) -> str:
    try:
        return shape_bucket(input_shapes(source))
    except (SyntaxError, ValueError):
        return "2^?"


def _model_source(source: str) -> str:
    """The code of ``class Model`` without docstrings (so prose does not decide the family)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Model":
            for inner in ast.walk(node):
                body = getattr(inner, "body", None)
                if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                        and isinstance(getattr(body[0], "value", None), ast.Constant):
                    inner.body = body[1:] or [ast.Pass()]
            return ast.unparse(node)
    return source


def _module_constants(tree: ast.Module) -> dict[str, int]:
    constants: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _eval(node.value, constants)
            if isinstance(value, int):
                constants[node.targets[0].id] = value
    return constants


def _function(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    return next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _shape_args(node: ast.Call, constants: dict[str, int]) -> tuple[int, ...]:
    args = node.args[2:] if _call_name(node) == "randint" else node.args
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        args = args[0].elts
    values = [_eval(a, constants) for a in args]
    return tuple(values) if values and all(isinstance(v, int) for v in values) else ()


def _eval(node: ast.AST, constants: dict[str, int]) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _eval(node.left, constants), _eval(node.right, constants)
        if isinstance(left, int) and isinstance(right, int):
            return _OPS[type(node.op)](left, right)
    return None


def slug(text: str) -> str:
    """A file-name-safe version of a task name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


def log2_elements(shapes: list[tuple[int, ...]]) -> float:
    return math.log2(max((math.prod(s) for s in shapes), default=1))
