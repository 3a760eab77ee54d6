"""Element-wise expressions: a forward pass made only of element-wise operations on one or two
same-shape tensors (and Python or runtime scalars) becomes vector code for one template tile.

``compile_expression`` walks the torch.fx graph in order, keeps every intermediate in one of the
tile buffers (``y``, ``t1``, ``t2``, and the input tiles ``x``/``x2`` once they are no longer read)
and emits the instruction sequence; the result ends in ``y``. A runtime scalar argument of
``forward`` (``A * s``) is the kernel's scalar ``s``. Swish written as ``x * torch.sigmoid(x)``,
softsign as ``x / (1 + x.abs())``, and the tanh form of GELU spelled out term by term all compile to
one pass through UB instead of one kernel (and one GM round trip) per operation.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

import torch
import torch.fx

from sandboxes.targets.npu.templates.ops import SIGMOID, TANH

REGISTERS = ("y", "t1", "t2")
"""Tile buffers an expression may write besides its dead input tiles."""
UNARY = {"abs": "Abs", "exp": "Exp", "log": "Ln", "sqrt": "Sqrt", "rsqrt": "Rsqrt", "reciprocal": "Reciprocal",
         "relu": "Relu"}
IN_PLACE_CODE = {"sigmoid": SIGMOID, "tanh": TANH}
BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "truediv": "Div", "div": "Div", "maximum": "Max",
          "minimum": "Min"}
ALIASES = {"iadd": "add", "isub": "sub", "imul": "mul", "itruediv": "truediv", "square": "pow2",
           "clamp_min": "clamp", "clamp_max": "clamp", "neg": "neg", "negative": "neg"}


class NotAnExpression(Exception):
    """The graph holds an operation the expression compiler does not cover."""


@dataclass
class Compiled:
    """Vector code for one tile and what the kernel must be given."""

    code: str
    tensors: list[str]
    """Tensor arguments of ``forward``, in order (one or two)."""
    scalar: str | None = None
    """The runtime scalar argument of ``forward``, if any."""
    reduce: str | None = None
    """sum, mean or batchmean when every element of the result is reduced to one value (a loss)."""


@dataclass
class _State:
    lines: list[str] = field(default_factory=list)
    where: dict[torch.fx.Node, str | float] = field(default_factory=dict)
    """A node's register, or its value when it is a compile-time or runtime scalar (its name)."""
    free: list[str] = field(default_factory=lambda: list(REGISTERS))
    reduce: str | None = None


def compile_expression(gm: torch.fx.GraphModule) -> Compiled:
    """The vector code of ``gm``'s forward pass; raises NotAnExpression when it is not one."""
    nodes = list(gm.graph.nodes)
    state, tensors, scalar = _State(), [], None
    for node in (n for n in nodes if n.op == "placeholder"):
        if _is_tensor(node):
            tensors.append(str(node.target))
            state.where[node] = ("x", "x2")[len(tensors) - 1] if len(tensors) <= 2 else "?"
        elif scalar is None:
            scalar = str(node.target)
            state.where[node] = "s"
    shapes = {_shape(n) for n in nodes if n.op == "placeholder" and _is_tensor(n)}
    if not 1 <= len(tensors) <= 2 or len(shapes) != 1:
        raise NotAnExpression("an element-wise expression needs one or two tensor inputs of one shape")
    output = next(n for n in nodes if n.op == "output").args[0]
    last_use = {value: index for index, node in enumerate(nodes) for value in node.all_input_nodes}
    for index, node in enumerate(nodes):
        if node.op not in ("call_function", "call_method", "call_module"):
            continue
        dying = [a for a in node.all_input_nodes if last_use.get(a) == index]
        if node is output and _name(gm, node) in ("sum", "mean") and len(node.args) == 1 and not node.kwargs:
            state.reduce, output = _name(gm, node), node.args[0]
        elif node is output and _name(gm, node) in LOSSES:
            _loss(node, state, dying)
        else:
            _emit(gm, node, state, dying, shapes)
    return Compiled(_finish(state, output), tensors, scalar, state.reduce)


def _emit(gm, node: torch.fx.Node, state: _State, dying: list[torch.fx.Node], shapes: set) -> None:
    name = _name(gm, node)
    operands = [_operand(state, a) for a in node.args if isinstance(a, (torch.fx.Node, int, float))]
    if _shape(node) not in shapes:
        raise NotAnExpression(f"{name} changes the shape")
    tensors = [o for o in operands if isinstance(o, str) and o != "s"]
    if not tensors:
        raise NotAnExpression(f"{name} of scalars only")
    _release(state, dying)
    dst = _destination(state, node, name, tensors)
    state.lines += _instruction(name, node, dst, operands)
    state.where[node] = dst


def _release(state: _State, dying: list[torch.fx.Node]) -> None:
    """Operands read for the last time free their registers (the result may overwrite them)."""
    for value in dying:
        register = state.where.get(value)
        if isinstance(register, str) and register != "s" and register not in state.free:
            state.free.append(register)


def _loss(node: torch.fx.Node, state: _State, dying: list[torch.fx.Node]) -> None:
    """A loss function as the last operation: its per-element term into y, its reduction noted."""
    name = _name_plain(node)
    reduction = node.kwargs.get("reduction", "mean")
    left, right = (_operand(state, a) for a in node.args[:2])
    if reduction not in ("mean", "sum", "batchmean") or (reduction == "batchmean") != (name == "kl_div") \
            or node.kwargs.get("log_target") or not all(isinstance(v, str) and v != "s" for v in (left, right)):
        raise NotAnExpression(f"{name} with these arguments")
    _release(state, dying)
    scratch = [r for r in state.free if r not in ("y", left, right)]
    if len(scratch) < 2 or "y" not in state.free:
        raise NotAnExpression(f"{name} needs two scratch tiles")
    state.lines += LOSSES[name](left, right, *scratch[:2], float(node.kwargs.get("beta", 1.0)))
    state.where[node], state.reduce = "y", reduction


def _smooth_l1(p: str, t: str, a: str, m: str, beta: float) -> list[str]:
    """With a = |p - t| and m = min(a, beta): m * (a - m / 2) / beta is 0.5 a^2 / beta below beta, else a - beta / 2."""
    return [f"Sub({a}, {p}, {t}, n)", f"Abs({a}, {a}, n)", f"Mins({m}, {a}, {beta!r}, n)",
            f"Muls(y, {m}, -0.5, n)", f"Add(y, y, {a}, n)", f"Mul(y, y, {m}, n)", f"Muls(y, y, {1.0 / beta!r}, n)"]


def _squared_error(p: str, t: str, a: str, m: str, beta: float) -> list[str]:
    return [f"Sub({a}, {p}, {t}, n)", f"Mul(y, {a}, {a}, n)"]


def _absolute_error(p: str, t: str, a: str, m: str, beta: float) -> list[str]:
    return [f"Sub({a}, {p}, {t}, n)", f"Abs(y, {a}, n)"]


def _kl_div(log_p: str, t: str, a: str, m: str, beta: float) -> list[str]:
    """t * (log t - log p), the pointwise KL term (targets are probabilities, log_target False)."""
    return [f"Ln({a}, {t}, n)", f"Sub({a}, {a}, {log_p}, n)", f"Mul(y, {a}, {t}, n)"]


LOSSES = {"smooth_l1_loss": _smooth_l1, "mse_loss": _squared_error, "l1_loss": _absolute_error, "kl_div": _kl_div}


def _destination(state: _State, node, name: str, tensors: list[str]) -> str:
    """A free register; one that an operand is still read from after it is written is avoided."""
    unsafe = set(tensors) if name == "pow" and node.args[1] in (3, 3.0) else set()
    prefer = ["y"] + [r for r in state.free if r != "y"] if len(node.users) == 1 and _feeds_output(node) else state.free
    for register in prefer:
        if register in state.free and register not in unsafe:
            state.free.remove(register)
            return register
    raise NotAnExpression("the expression keeps more intermediates alive than the tile has buffers")


def _instruction(name: str, node, dst: str, operands: list) -> list[str]:
    if name in UNARY:
        return [f"{UNARY[name]}({dst}, {operands[0]}, n)"]
    if name in IN_PLACE_CODE:
        return IN_PLACE_CODE[name].format(out=dst, src=operands[0]).splitlines()
    if name == "neg":
        return [f"Muls({dst}, {operands[0]}, -1.0, n)"]
    if name in ("pow", "pow2"):
        exponent = 2 if name == "pow2" else node.args[1]
        if exponent in (2, 2.0):
            return [f"Mul({dst}, {operands[0]}, {operands[0]}, n)"]
        if exponent in (3, 3.0):
            return [f"Mul({dst}, {operands[0]}, {operands[0]}, n)", f"Mul({dst}, {dst}, {operands[0]}, n)"]
        if exponent == 0.5:
            return [f"Sqrt({dst}, {operands[0]}, n)"]
        raise NotAnExpression(f"pow with exponent {exponent}")
    if name == "clamp":
        return _clamp(node, dst, operands[0])
    if name in BINARY and len(operands) == 2:
        return _binary(name, dst, *operands)
    raise NotAnExpression(f"no vector code for {name}")


def _binary(name: str, dst: str, left, right) -> list[str]:
    left_tensor, right_tensor = (isinstance(v, str) and v != "s" for v in (left, right))
    if left_tensor and right_tensor:
        return [f"{BINARY[name]}({dst}, {left}, {right}, n)"]
    tensor, scalar = (left, right) if left_tensor else (right, left)
    value = scalar if isinstance(scalar, str) else repr(float(scalar))
    if name == "add":
        return [f"Adds({dst}, {tensor}, {value}, n)"]
    if name == "mul":
        return [f"Muls({dst}, {tensor}, {value}, n)"]
    if name == "sub":
        return ([f"Adds({dst}, {tensor}, -{value}, n)"] if left_tensor
                else [f"Muls({dst}, {tensor}, -1.0, n)", f"Adds({dst}, {dst}, {value}, n)"])
    if name in ("truediv", "div"):
        return ([f"Muls({dst}, {tensor}, 1.0 / {value}, n)"] if left_tensor
                else [f"Reciprocal({dst}, {tensor}, n)", f"Muls({dst}, {dst}, {value}, n)"])
    if name in ("maximum", "minimum"):
        return [f"{'Maxs' if name == 'maximum' else 'Mins'}({dst}, {tensor}, {value}, n)"]
    raise NotAnExpression(f"{name} with a scalar")


def _clamp(node, dst: str, source: str) -> list[str]:
    low = node.kwargs.get("min", node.args[1] if len(node.args) > 1 else None)
    high = node.kwargs.get("max", node.args[2] if len(node.args) > 2 else None)
    if _name_plain(node) == "clamp_max":
        low, high = None, low
    if not all(isinstance(v, (int, float, type(None))) for v in (low, high)):
        raise NotAnExpression("clamp with tensor bounds")
    lines, current = [], source
    if low is not None:
        lines.append(f"Maxs({dst}, {current}, {float(low)!r}, n)")
        current = dst
    if high is not None:
        lines.append(f"Mins({dst}, {current}, {float(high)!r}, n)")
    return lines or [f"DataCopy({dst}, {source}, AlignedCount(n, {dst}.dtype))"]


def _finish(state: _State, output) -> str:
    register = state.where.get(output)
    if not isinstance(register, str) or register == "s":
        raise NotAnExpression("the output is not a tensor computed by the expression")
    if register != "y":
        state.lines.append(f"DataCopy(y, {register}, AlignedCount(n, y.dtype))")
    return "\n".join(state.lines)


def _operand(state: _State, value):
    if isinstance(value, torch.fx.Node):
        if value not in state.where:
            raise NotAnExpression(f"{value.name} is not part of the expression")
        return state.where[value]
    return value


def _name(gm, node: torch.fx.Node) -> str:
    if node.op == "call_module":
        return type(gm.get_submodule(node.target)).__name__.lower()
    name = _name_plain(node)
    name = ALIASES.get(name, name)
    if name in ("add", "sub") and node.kwargs.get("alpha", 1) != 1:
        raise NotAnExpression(f"{name} with alpha")
    return name


def _name_plain(node: torch.fx.Node) -> str:
    if node.op == "call_method":
        return str(node.target)
    target = node.target
    if target in (operator.add, operator.sub, operator.mul, operator.truediv, operator.neg):
        return target.__name__
    return getattr(target, "__name__", str(target))


def _feeds_output(node: torch.fx.Node) -> bool:
    return any(user.op == "output" for user in node.users)


def _is_tensor(node: torch.fx.Node) -> bool:
    return isinstance(node.meta.get("tensor_meta"), torch.fx.passes.shape_prop.TensorMetadata)


def _shape(node: torch.fx.Node) -> tuple | None:
    meta = node.meta.get("tensor_meta")
    return tuple(meta.shape) if hasattr(meta, "shape") else None
