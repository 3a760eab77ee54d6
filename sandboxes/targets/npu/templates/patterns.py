"""Whole-graph patterns of operators written out in several torch ops (KernelBench's RMSNorm, L1 and
Frobenius normalisation, reversed, exclusive and masked prefix sums, a diagonal matrix times a matrix,
the hinge loss): the calls are matched as a whole and become one norm, axis_reduce, global_norm, scan,
channel or row_loss operator."""

from __future__ import annotations

import operator

import torch
import torch.fx

from sandboxes.targets.npu.templates.ops import OpSpec


def _calls(gm: torch.fx.GraphModule) -> tuple[list[torch.fx.Node], list[str], torch.fx.Node | None]:
    nodes = list(gm.graph.nodes)
    inputs = [n for n in nodes if n.op == "placeholder"]
    calls = [n for n in nodes if n.op in ("call_function", "call_method")]
    names = [n.target if n.op == "call_method" else _function_name(n.target) for n in calls]
    return calls, names, inputs[0] if len(inputs) == 1 else None


def _function_name(target) -> str:
    return {operator.truediv: "truediv", operator.add: "add", operator.mul: "mul",
            operator.pow: "pow", operator.sub: "sub", operator.matmul: "matmul"}.get(target, getattr(target, "__name__", str(target)))


def _reduced_dim(node: torch.fx.Node, rank: int) -> int | None:
    """The one dimension a keepdim reduction reduces (non-negative), else None."""
    dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
    dim = dim[0] if isinstance(dim, (list, tuple)) and len(dim) == 1 else dim
    keepdim = node.kwargs.get("keepdim", node.args[2] if len(node.args) > 2 else False)
    return dim % rank if isinstance(dim, int) and keepdim is True else None


def _rank(node: torch.fx.Node) -> int:
    meta = node.meta.get("tensor_meta")
    return len(meta.shape) if hasattr(meta, "shape") else -1


def rms_pattern(gm: torch.fx.GraphModule) -> OpSpec | None:
    """x / sqrt(mean(x ** 2, dim, keepdim=True) + eps): a norm over the last dimension, else an
    axis_reduce rms along ``dim``."""
    calls, names, x = _calls(gm)
    if x is None or names != ["pow", "mean", "add", "sqrt", "truediv"]:
        return None
    square, mean, add, root, divide = calls
    eps = [a for a in add.args if isinstance(a, float)]
    dim = _reduced_dim(mean, _rank(x))
    if square.args != (x, 2) or mean.args[0] is not square or add.args[0] is not mean or not eps \
            or root.args != (add,) or divide.args != (x, root) or dim is None:
        return None
    if dim == _rank(x) - 1:
        return OpSpec("rms_norm", "norm", [str(x.target)], {"eps": eps[0]})
    return OpSpec("rms_axis", "axis_reduce", [str(x.target)], {"reduce": "rms", "dim": dim, "eps": eps[0]})


def l1_pattern(gm: torch.fx.GraphModule) -> OpSpec | None:
    """x / mean(|x|, dim=-1, keepdim=True) as one norm operator in l1 mode."""
    calls, names, x = _calls(gm)
    if x is None or names != ["abs", "mean", "truediv"]:
        return None
    absolute, mean, divide = calls
    if absolute.args != (x,) or mean.args[0] is not absolute or divide.args != (x, mean) \
            or _reduced_dim(mean, _rank(x)) != _rank(x) - 1:
        return None
    return OpSpec("l1_normalize", "norm", [str(x.target)])


EXCLUSIVE_CALLS = {"size", "sub", "narrow", "cumsum", "select", "unsqueeze", "zeros_like", "cat"}
"""torch's usual spelling of an exclusive prefix sum: the inclusive one of all but the last element,
after a zero."""


def scan_pattern(gm: torch.fx.GraphModule) -> OpSpec | None:
    """flip -> cumsum -> flip (suffix sums), the exclusive spelling above, or cumsum(x * mask), all over
    the last dimension, as one scan operator."""
    nodes = list(gm.graph.nodes)
    calls = [n for n in nodes if n.op in ("call_function", "call_method")]
    names = [n.target if n.op == "call_method" else _function_name(n.target) for n in calls]
    inputs = [n for n in nodes if n.op == "placeholder"]
    scans = [n for n, name in zip(calls, names) if name == "cumsum"]
    if len(scans) != 1 or not inputs or not _last(scans[0], _rank(inputs[0])):
        return None
    x = str(inputs[0].target)
    if names == ["flip", "cumsum", "flip"] and all(_flips_last(n, _rank(inputs[0])) for n in (calls[0], calls[2])):
        return OpSpec("cumsum_reverse", "scan", [x], {"reverse": True})
    if set(names) == EXCLUSIVE_CALLS and len(names) == len(EXCLUSIVE_CALLS) and len(inputs) == 1:
        return OpSpec("cumsum_exclusive", "scan", [x], {"exclusive": True})
    if names == ["mul", "cumsum"] and len(inputs) == 2 and set(calls[0].args) == set(inputs) \
            and inputs[1].meta.get("tensor_meta").dtype == torch.bool:
        return OpSpec("cumsum_masked", "scan", [x, str(inputs[1].target)])
    return None


def _last(node: torch.fx.Node, rank: int) -> bool:
    dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
    return isinstance(dim, int) and dim % rank == rank - 1


def _flips_last(node: torch.fx.Node, rank: int) -> bool:
    dims = node.kwargs.get("dims", node.args[1:] if len(node.args) > 1 else ())
    dims = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], (list, tuple)) else tuple(dims)
    return len(dims) == 1 and isinstance(dims[0], int) and dims[0] % rank == rank - 1


def diagonal_pattern(gm: torch.fx.GraphModule) -> OpSpec | None:
    """diag(a) @ b written as ``a.unsqueeze(1) * b`` or ``torch.diag(a) @ b``: b's rows scaled, one
    channel operator."""
    calls, names, _ = _calls(gm)
    inputs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(calls) != 2 or len(inputs) != 2 or [_rank(n) for n in inputs] != [1, 2]:
        return None
    vector, matrix = inputs
    spread, product = calls
    widened = names[0] == "unsqueeze" and spread.args == (vector, 1) and names[1] == "mul"
    diagonal = names[0] == "diag" and spread.args == (vector,) and names[1] in ("matmul", "mm")
    if not (widened and set(product.args) == {spread, matrix} or diagonal and product.args == (spread, matrix)):
        return None
    return OpSpec("row_scale", "channel", [str(matrix.target), str(vector.target)])


def hinge_pattern(gm: torch.fx.GraphModule) -> OpSpec | None:
    """mean(clamp(1 - x * t, min=0)) with t one target per column of x: one row_loss operator."""
    calls, names, _ = _calls(gm)
    inputs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if names != ["mul", "sub", "clamp", "mean"] or len(inputs) != 2 or [_rank(n) for n in inputs] != [2, 1]:
        return None
    product, margin, clamp, mean = calls
    low = clamp.kwargs.get("min", clamp.args[1] if len(clamp.args) > 1 else None)
    x, t = inputs
    if set(product.args) != {x, t} or margin.args != (1, product) or clamp.args[0] is not margin or low != 0 \
            or clamp.kwargs.get("max") is not None or mean.args != (clamp,) or mean.kwargs \
            or x.meta["tensor_meta"].shape[-1] != t.meta["tensor_meta"].shape[0]:
        return None
    return OpSpec("hinge", "row_loss", [str(x.target), str(t.target)], {"loss": "hinge"})


def frobenius_pattern(gm: torch.fx.GraphModule) -> OpSpec | None:
    """x / torch.norm(x, p='fro') (the norm of every element): one global_norm operator."""
    calls, names, x = _calls(gm)
    if x is None or names != ["norm", "truediv"]:
        return None
    norm, divide = calls
    p = norm.kwargs.get("p", norm.args[1] if len(norm.args) > 1 else "fro")
    whole = norm.kwargs.get("dim", norm.args[2] if len(norm.args) > 2 else None) is None
    if norm.args[0] is not x or p not in ("fro", 2, 2.0) or not whole or divide.args != (x, norm):
        return None
    return OpSpec("frobenius_normalize", "global_norm", [str(x.target)])
