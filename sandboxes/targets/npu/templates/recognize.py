"""Read a reference ``nn.Module`` with torch.fx and name the template operators it is made of."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

import torch
import torch.fx
from torch.fx.passes.shape_prop import ShapeProp

from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.npu.templates.recognize_nn import (cross_entropy_spec, l2_pattern, loss_module_spec, module_spec,
                                                          pool_spec)

ACTIVATIONS = {"relu", "sigmoid", "tanh", "silu", "gelu", "softplus", "elu", "hardtanh", "hardsigmoid", "leaky_relu",
               "selu"}
MODULES = {"ReLU": "relu", "Sigmoid": "sigmoid", "Tanh": "tanh", "SiLU": "silu", "GELU": "gelu", "SELU": "selu"}
ARITH = {"add": "add", "sub": "sub", "mul": "mul", "iadd": "add", "imul": "mul", "truediv": "div", "div": "div",
         "itruediv": "div"}
DEFAULTS = {"leaky_relu": ("negative_slope", 0.01), "elu": ("alpha", 1.0)}
MATMULS = ("matmul", "mm", "bmm", "mv")
CASTS = ("to", "float", "half")
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805
"""The constants of SELU (Klambauer et al., 2017), as torch.selu uses them."""
AXIS_REDUCTIONS = ("sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin")


@dataclass
class Graph:
    """The operators of a forward pass in order, and the expression holding the output."""

    ops: list[tuple[str, OpSpec]] = field(default_factory=list)
    """(result variable, operator) pairs."""
    output: str = ""
    unsupported: str = ""
    """Why the graph cannot be built from templates; empty when it can."""


def recognise(model: torch.nn.Module, inputs: list) -> Graph:
    """The template operators of ``model`` run on ``inputs``; ``unsupported`` says what is missing."""
    gm = traced(model, inputs)
    return Graph(unsupported=gm) if isinstance(gm, str) else _Reader(gm).read()


def traced(model: torch.nn.Module, inputs: list) -> torch.fx.GraphModule | str:
    """``model`` traced by torch.fx with every node's shape and dtype, or why it cannot be traced."""
    try:
        gm = torch.fx.symbolic_trace(model)
        ShapeProp(gm).propagate(*inputs)
    except Exception as error:  # tracing arbitrary user models can fail in many ways
        return f"cannot trace the reference: {type(error).__name__}: {error}"
    return gm


class _Reader:
    def __init__(self, gm: torch.fx.GraphModule):
        self.gm = gm
        self.names: dict[torch.fx.Node, str] = {}
        self.graph = Graph()

    def read(self) -> Graph:
        nodes = list(self.gm.graph.nodes)
        start = 0
        pattern = _rms_pattern(nodes) or l2_pattern(nodes)
        if pattern is not None:
            last, spec = pattern
            self.graph.ops.append(("v0", spec))
            self.names[last] = "v0"
            start = nodes.index(last) + 1
        for node in nodes[start:]:
            if node.op == "placeholder":
                self.names[node] = str(node.target)  # the argument as forward spells it (fx snake-cases names)
            elif node.op == "get_attr":
                self.names[node] = f"self.{node.target}"
            elif node.op == "output":
                self.graph.output = self.names.get(node.args[0], "")
            elif not self._operator(node):
                self.graph.unsupported = self.graph.unsupported or f"no NPU template for {_describe(node)}"
        return self.graph

    def _operator(self, node: torch.fx.Node) -> bool:
        if _is_matmul_transpose(self.gm, node) or _is_values(node) or self._folded_cast(node):
            self.names[node] = self.names.get(node.args[0], "")
            return True
        spec = self._spec(node)
        if spec is None:
            return False
        spec = self._fuse_affine(node, spec)
        name = f"v{len(self.graph.ops)}"
        self.graph.ops.append((name, spec))
        self.names[node] = name
        return True

    def _fuse_affine(self, node, spec: OpSpec) -> OpSpec:
        """x * a followed by + b becomes one scale_shift."""
        if spec.op != "scale_shift" or not self.graph.ops:
            return spec
        source = node.args[0]
        last_name, last = self.graph.ops[-1]
        if last.op == "scale_shift" and self.names.get(source) == last_name and len(source.users) == 1:
            self.graph.ops.pop()
            scale = last.attrs["scale"] * spec.attrs["scale"]
            shift = last.attrs["shift"] * spec.attrs["scale"] + spec.attrs["shift"]
            return OpSpec("scale_shift", "elementwise", last.args, {"scale": scale, "shift": shift})
        return spec

    def _folded_cast(self, node: torch.fx.Node) -> bool:
        """A cast the matmul template does itself: of a matmul operand (B is cast to A's type), or to
        float32 of a matmul result (the template accumulates and writes float32)."""
        if node.op != "call_method" or node.target not in CASTS or not isinstance(node.args[0], torch.fx.Node):
            return False
        feeds_matmul = all(_op_name(self.gm, user) in MATMULS for user in node.users)
        source = node.args[0]
        from_matmul = _op_name(self.gm, source) in MATMULS and _dtype(node) == torch.float32
        return feeds_matmul or from_matmul

    def _arg(self, value) -> str | None:
        return self.names.get(value) if isinstance(value, torch.fx.Node) else None

    def _spec(self, node: torch.fx.Node) -> OpSpec | None:
        name = _op_name(self.gm, node)
        args = [self._arg(a) for a in node.args]
        if name in ACTIVATIONS and args and args[0]:
            return _activation(name, node, args[0])
        if name in ARITH and len(node.args) == 2:
            return self._arith(ARITH[name], node)
        if name == "pow" and node.args[1:] == (2,) and args[0]:
            return OpSpec("square", "elementwise", [args[0]])
        if name in ("softmax", "log_softmax") and _last_dim(node):
            return OpSpec(name, "softmax", [args[0]])
        if name in ("sum", "mean", "amax", "amin", "max", "min", "argmax") and _last_dim(node) \
                and not node.kwargs.get("keepdim"):
            kind = {"amax": "max", "amin": "min"}.get(name, name)
            return OpSpec(f"{kind}_rows", "row_reduce", [args[0]])
        if name in AXIS_REDUCTIONS and args and args[0] and _dim(node) is not None:
            kind = {"amax": "max", "amin": "min"}.get(name, name)
            return OpSpec(f"{kind}_axis", "axis_reduce", [args[0]],
                          {"reduce": kind, "dim": _dim(node), "keepdim": _keepdim(node)})
        if name in ("sum", "mean") and len(node.args) == 1 and not node.kwargs and args[0]:
            return OpSpec(f"{name}_all", "full_reduce", [args[0]], {"reduce": name})
        if name == "cumsum" and _last_dim(node) and args[0]:
            return OpSpec("cumsum", "scan", [args[0]])
        if name in ("triu", "tril") and args and args[0] and _rank(node.args[0]) == 2 \
                and node.kwargs.get("diagonal", node.args[1] if len(node.args) > 1 else 0) == 0:
            return OpSpec(name, "triangle", [args[0]])
        if name == "cumprod" and _last_dim(node) and args[0]:
            return OpSpec("cumprod", "scan", [args[0]], {"scan": "prod"})
        if name == "contiguous" and _is_transpose(node.args[0]) and self._arg(node.args[0].args[0]):
            return OpSpec("transpose", "transpose", [self._arg(node.args[0].args[0])])
        if name in ("avg_pool2d", "max_pool2d") and args and args[0] and _rank(node.args[0]) == 4:
            return pool_spec(name, node, args[0])
        if name == "LayerNorm":
            module = self.gm.get_submodule(node.target)
            attrs = {"eps": module.eps, "norm_dims": len(module.normalized_shape)}
            if module.elementwise_affine:
                attrs.update(weight=f"self.{node.target}.weight", bias=f"self.{node.target}.bias")
            return OpSpec("layer_norm", "norm", [args[0]], attrs)
        if name == "scaled_dot_product_attention" and len(node.args) == 3 and all(args[:3]) \
                and not {k: v for k, v in node.kwargs.items() if v not in (None, 0.0, False)}:
            return OpSpec("attention", "attention", list(args[:3]))
        if name == "cross_entropy":
            return cross_entropy_spec(node, args)
        if node.op == "call_module" and len(args) == 3:
            return loss_module_spec(self.gm.get_submodule(node.target), args)
        if node.op == "call_module" and args and args[0]:
            return module_spec(self.gm.get_submodule(node.target), node.target, args[0], _rank(node.args[0]))
        if name in MATMULS and all(args[:2]):
            transposed_a = {"transpose_a": True} if _is_transpose(node.args[0]) else {}
            return OpSpec("matmul", "matmul", args[:2], {"transpose_b": _is_transpose(node.args[1]), **transposed_a})
        if name == "einsum" and _einsum_matmul(node) and all(args[1:3]):
            return OpSpec("matmul", "matmul", args[1:3], {"transpose_b": False})
        return None

    def _arith(self, op: str, node: torch.fx.Node) -> OpSpec | None:
        left, right = node.args
        if any(isinstance(a, torch.fx.Node) and a not in self.names for a in (left, right)):
            return None  # an operand came from an operator without a template
        if isinstance(left, torch.fx.Node) and isinstance(right, torch.fx.Node):
            if op == "mul" and left is right:
                return OpSpec("square", "elementwise", [self.names[left]])
            if op == "add" and _is_row_vector(right, left):
                return OpSpec("bias_add", "epilogue", [self.names[left], self.names[right]])
            if _shape(left) != _shape(right) or _dtype(left) != _dtype(right):
                return None  # other broadcasts (and mixed types, a bool mask) have no template
            return OpSpec(op, "elementwise", [self.names[left], self.names[right]])
        tensor, scalar = (left, right) if isinstance(left, torch.fx.Node) else (right, left)
        if not isinstance(scalar, (int, float)) or (op in ("sub", "div") and tensor is right) \
                or (op == "div" and (scalar == 0 or node.kwargs.get("rounding_mode"))):
            return None
        scale = float(scalar) if op == "mul" else 1.0 / float(scalar) if op == "div" else 1.0
        shift = {"add": float(scalar), "sub": -float(scalar)}.get(op, 0.0)
        return OpSpec("scale_shift", "elementwise", [self.names[tensor]], {"scale": scale, "shift": shift})


def _op_name(gm: torch.fx.GraphModule, node: torch.fx.Node) -> str:
    if node.op == "call_module":
        kind = type(gm.get_submodule(node.target)).__name__
        return MODULES.get(kind, kind)
    if node.op == "call_method":
        return node.target
    if node.target is operator.matmul:
        return "matmul"
    return getattr(node.target, "__name__", str(node.target))


def _activation(name: str, node: torch.fx.Node, arg: str) -> OpSpec:
    attrs = {}
    if name == "gelu" and node.kwargs.get("approximate", "none") == "tanh":
        name = "gelu_tanh"
    if name in DEFAULTS:
        key, default = DEFAULTS[name]
        attrs[key] = float(node.kwargs.get(key, node.args[1] if len(node.args) > 1 else default))
    if name == "selu":
        attrs = {"alpha_scale": SELU_ALPHA * SELU_SCALE, "scale": SELU_SCALE}
    if name == "hardtanh":
        attrs = {"min_val": float(node.kwargs.get("min_val", -1.0)), "max_val": float(node.kwargs.get("max_val", 1.0))}
    return OpSpec(name, "elementwise", [arg], attrs)


def _shape(node) -> tuple | None:
    meta = node.meta.get("tensor_meta") if isinstance(node, torch.fx.Node) else None
    return tuple(meta.shape) if meta is not None and hasattr(meta, "shape") else None


def _dtype(node) -> torch.dtype | None:
    meta = node.meta.get("tensor_meta") if isinstance(node, torch.fx.Node) else None
    return getattr(meta, "dtype", None)


def _is_row_vector(vector, matrix) -> bool:
    """A 1-D tensor as long as the last dimension of ``matrix`` (a bias broadcast over its rows)."""
    shape, full = _shape(vector), _shape(matrix)
    return shape is not None and full is not None and len(shape) == 1 and len(full) >= 2 and shape == full[-1:]


def _rank(node) -> int:
    shape = _shape(node)
    return -1 if shape is None else len(shape)


def _last_dim(node: torch.fx.Node) -> bool:
    dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
    shape = _shape(node.args[0])
    return isinstance(dim, int) and shape is not None and dim in (-1, len(shape) - 1)


def _einsum_matmul(node: torch.fx.Node) -> bool:
    """``einsum('...l,lk->...k', A, B)``: A's last index contracted with B's first, A's others kept."""
    equation = node.args[0] if isinstance(node.args[0], str) else ""
    inputs, _, output = equation.replace(" ", "").partition("->")
    left, _, right = inputs.partition(",")
    return (len(node.args) == 3 and len(right) == 2 and len(left) >= 2 and left[-1] == right[0]
            and output == left[:-1] + right[1] and len(set(left + right[1])) == len(left) + 1)


def _dim(node: torch.fx.Node) -> int | None:
    """The one reduced dimension of a reduction node, if it names one."""
    dim = node.kwargs.get("dim", node.args[1] if len(node.args) > 1 else None)
    dim = dim[0] if isinstance(dim, (list, tuple)) and len(dim) == 1 else dim
    return dim if isinstance(dim, int) and isinstance(_keepdim(node), bool) else None


def _keepdim(node: torch.fx.Node):
    return node.kwargs.get("keepdim", node.args[2] if len(node.args) > 2 else False)


def _is_matmul_transpose(gm: torch.fx.GraphModule, node: torch.fx.Node) -> bool:
    """A transpose the matmul template applies itself (every user is a matmul or ``.contiguous()``)."""
    return _is_transpose(node) and all(_op_name(gm, user) in MATMULS + ("contiguous",) for user in node.users)


def _is_transpose(node) -> bool:
    """``x.T``, ``x.mT``, ``x.t()`` or ``x.transpose`` of the last two dimensions."""
    if not isinstance(node, torch.fx.Node):
        return False
    if node.op == "call_function" and node.target is getattr and node.args[1] in ("T", "mT"):
        return True
    if node.op == "call_method" and node.target == "transpose" and len(node.args) == 3:
        rank = _rank(node.args[0])
        return rank >= 2 and {d % rank for d in node.args[1:] if isinstance(d, int)} == {rank - 2, rank - 1}
    return node.op == "call_method" and node.target == "t"


def _is_values(node: torch.fx.Node) -> bool:
    if node.op == "call_function" and node.target is getattr and node.args[1] == "values":
        return True
    return node.op == "call_function" and node.target is operator.getitem and node.args[1] == 0 and \
        _op_name_plain(node.args[0]) in ("max", "min")


def _op_name_plain(node) -> str:
    return getattr(node.target, "__name__", str(node.target)) if isinstance(node, torch.fx.Node) else ""


def _describe(node: torch.fx.Node) -> str:
    return f"{node.op} {getattr(node.target, '__name__', node.target)}"


def _rms_pattern(nodes: list[torch.fx.Node]) -> tuple[torch.fx.Node, OpSpec] | None:
    """x * rsqrt(mean(x^2, -1, keepdim) + eps) [* weight] as one rms_norm operator (the calls after it
    are read as ordinary operators)."""
    calls = [n for n in nodes if n.op in ("call_function", "call_method")]
    names = [_op_name_plain(n) if n.op == "call_function" else n.target for n in calls]
    allowed = {"pow", "mul", "mean", "add", "rsqrt"}
    length = next((i for i, name in enumerate(names) if name not in allowed), len(names))
    calls, names = calls[:length], names[:length]
    if "rsqrt" not in names or "mean" not in names or set(names[names.index("rsqrt") + 1:]) - {"mul"}:
        return None
    inputs = [n for n in nodes if n.op == "placeholder"]
    params = [n for n in nodes if n.op == "get_attr"]
    eps = [a for n in calls if _op_name_plain(n) == "add" for a in n.args if isinstance(a, float)]
    if len(inputs) != 1 or len(params) > 1 or not eps:
        return None
    attrs = {"eps": eps[0]}
    if params:
        attrs["weight"] = f"self.{params[0].target}"
    return calls[-1], OpSpec("rms_norm", "norm", [str(inputs[0].target)], attrs)
