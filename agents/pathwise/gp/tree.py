"""Expression trees: a tree is a terminal name (str), a constant (float) or ``(function, child, ...)``.

Trees are immutable tuples, so they hash and compare by value. ``text``/``parse`` give the s-expression
form kept in a heuristic's docstring (``(sub (neg g) (mul 0.3 e))``); ``numpy_expression`` gives the
vectorised numpy expression the heuristic computes (one array operation per function node, over every
bin, node or item at once). Functions are protected where plain numpy would fail: division by a near
zero divides by 1, and the square root takes the absolute value.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Callable, Iterator, Union

import numpy as np

Tree = Union[str, float, tuple]
Path = tuple[int, ...]


@dataclass(frozen=True)
class Function:
    """A function node: its arity and the numpy expression it renders to (``{0}``, ``{1}``: its children)."""

    arity: int
    numpy: str
    meaning: str
    compute: Callable[..., np.ndarray]
    """The same operation on arrays, for evaluating a tree here (constant folding, checks)."""


def pdiv(a, b):
    """Protected division: a / b, dividing by 1 where |b| < 1e-6."""
    return a / np.where(np.abs(b) < 1e-6, 1.0, b)


PDIV = inspect.getsource(pdiv)
"""The helper a heuristic defines when its tree divides (this module's :func:`pdiv`, verbatim)."""


FUNCTIONS: dict[str, Function] = {
    "add": Function(2, "({0} + {1})", "sum", np.add),
    "sub": Function(2, "({0} - {1})", "difference", np.subtract),
    "mul": Function(2, "({0} * {1})", "product", np.multiply),
    "div": Function(2, "pdiv({0}, {1})", "protected quotient", pdiv),
    "min": Function(2, "np.minimum({0}, {1})", "smaller of the two", np.minimum),
    "max": Function(2, "np.maximum({0}, {1})", "larger of the two", np.maximum),
    "lte": Function(2, "np.where({0} <= {1}, 1.0, 0.0)", "1 where the first is at most the second, else 0",
                    lambda a, b: np.where(a <= b, 1.0, 0.0)),
    "neg": Function(1, "(-{0})", "negation", np.negative),
    "sq": Function(1, "np.square({0})", "square", np.square),
    "sqrt": Function(1, "np.sqrt(np.abs({0}))", "square root of the absolute value", lambda a: np.sqrt(np.abs(a))),
}


def is_function(tree: Tree) -> bool:
    return isinstance(tree, tuple)


def is_constant(tree: Tree) -> bool:
    return isinstance(tree, float)


def text(tree: Tree) -> str:
    """The s-expression of ``tree``."""
    if is_function(tree):
        return "(" + " ".join([tree[0], *map(text, tree[1:])]) + ")"
    return constant_text(tree) if is_constant(tree) else tree


def constant_text(value: float) -> str:
    return f"{value:.4g}"


def parse(source: str) -> Tree:
    """The tree of an s-expression (the inverse of :func:`text`); ValueError when it is not one."""
    tokens = source.replace("(", " ( ").replace(")", " ) ").split()
    tree, rest = _parse_tokens(tokens)
    if rest:
        raise ValueError(f"unexpected {' '.join(rest[:3])!r} after the tree")
    return tree


def _parse_tokens(tokens: list[str]) -> tuple[Tree, list[str]]:
    if not tokens:
        raise ValueError("the tree ends early")
    head, rest = tokens[0], tokens[1:]
    if head != "(":
        if head == ")":
            raise ValueError("unbalanced ')'")
        return _leaf(head), rest
    if not rest or rest[0] not in FUNCTIONS:
        raise ValueError(f"unknown function {rest[0] if rest else ''!r}")
    name, rest, children = rest[0], rest[1:], []
    for _ in range(FUNCTIONS[name].arity):
        child, rest = _parse_tokens(rest)
        children.append(child)
    if not rest or rest[0] != ")":
        raise ValueError(f"{name} takes {FUNCTIONS[name].arity} arguments")
    return (name, *children), rest[1:]


def _leaf(token: str) -> Tree:
    try:
        return float(token)
    except ValueError:
        if not token.isidentifier():
            raise ValueError(f"bad terminal {token!r}") from None
        return token


def size(tree: Tree) -> int:
    """Number of nodes."""
    return 1 + sum(size(child) for child in tree[1:]) if is_function(tree) else 1


def depth(tree: Tree) -> int:
    """Levels of the tree (a lone terminal has depth 1)."""
    return 1 + max(depth(child) for child in tree[1:]) if is_function(tree) else 1


def paths(tree: Tree, prefix: Path = ()) -> Iterator[Path]:
    """The path of every node, root first (a path lists child positions from the root)."""
    yield prefix
    if is_function(tree):
        for index, child in enumerate(tree[1:]):
            yield from paths(child, prefix + (index,))


def at(tree: Tree, path: Path) -> Tree:
    for index in path:
        tree = tree[index + 1]
    return tree


def replace(tree: Tree, path: Path, new: Tree) -> Tree:
    """``tree`` with the subtree at ``path`` replaced by ``new``."""
    if not path:
        return new
    index = path[0] + 1
    return tree[:index] + (replace(tree[index], path[1:], new),) + tree[index + 1:]


def primitives(tree: Tree) -> set[str]:
    """The function and terminal names in ``tree`` (constants appear as ``const``)."""
    if is_function(tree):
        return {tree[0]}.union(*(primitives(child) for child in tree[1:]))
    return {"const"} if is_constant(tree) else {tree}


def terminals(tree: Tree) -> set[str]:
    """The terminal names ``tree`` reads."""
    return primitives(tree) - set(FUNCTIONS) - {"const"}


def numpy_expression(tree: Tree) -> str:
    """The numpy expression computing ``tree`` (terminals are variables of the same name)."""
    if is_function(tree):
        return FUNCTIONS[tree[0]].numpy.format(*map(numpy_expression, tree[1:]))
    if is_constant(tree):
        return f"({constant_text(tree)})" if tree < 0 else constant_text(tree)
    return tree


def evaluate(tree: Tree, values: dict[str, np.ndarray | float]) -> np.ndarray:
    """The value of ``tree`` with its terminals bound to ``values`` (what the rendered expression computes)."""
    if is_function(tree):
        return FUNCTIONS[tree[0]].compute(*(evaluate(child, values) for child in tree[1:]))
    return np.float64(tree) if is_constant(tree) else values[tree]


def fold(tree: Tree) -> Tree:
    """Constant folding: every subtree without terminals becomes its value (rounded as the text shows it)."""
    if not is_function(tree):
        return tree
    folded = (tree[0], *(fold(child) for child in tree[1:]))
    if all(is_constant(child) for child in folded[1:]):
        with np.errstate(all="ignore"):
            value = float(evaluate(folded, {}))
        if math.isfinite(value):
            return float(constant_text(value))
    return folded
