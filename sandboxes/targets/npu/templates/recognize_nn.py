"""Recognition of the NCHW layers (convolution, batch/group norm, pooling) and of row-wise L2
normalisation: each becomes one template operator, or None when its settings have no template."""

from __future__ import annotations

import operator

import torch
import torch.fx

from sandboxes.targets.npu.templates.ops import OpSpec

MAX_PAD = 8
"""The window template keeps 8 fill elements around each band row, so padding up to 8 is covered."""


def module_spec(module: torch.nn.Module, target: str, arg: str, rank: int) -> OpSpec | None:
    """Linear (2-D or 3-D input); on NCHW input Conv2d (dense or depthwise), BatchNorm2d in eval mode,
    GroupNorm with affine parameters, InstanceNorm2d without, max and average pooling; on NCL input
    Conv1d and 1-D pooling (as windows one row high)."""
    if isinstance(module, torch.nn.Linear) and rank in (2, 3):
        params = [f"self.{target}.weight"] + ([f"self.{target}.bias"] if module.bias is not None else [])
        return OpSpec("linear", "linear", [arg, *params])
    if isinstance(module, (torch.nn.Conv1d, torch.nn.Conv2d)) and rank == module.weight.dim():
        return _conv(module, target, arg)
    if isinstance(module, POOLS) and rank == (3 if isinstance(module, (torch.nn.MaxPool1d, torch.nn.AvgPool1d)) else 4):
        return _pool_module(module, arg)
    if rank != 4:
        return None
    if isinstance(module, torch.nn.BatchNorm2d) and not module.training and module.affine \
            and module.track_running_stats:
        params = [f"self.{target}.{p}" for p in ("weight", "bias", "running_mean", "running_var")]
        return OpSpec("batch_norm", "channel", [arg, *params], {"eps": module.eps})
    if isinstance(module, torch.nn.BatchNorm2d) and module.affine and (module.training or not module.track_running_stats):
        return OpSpec("batch_stats", "channel", [arg, f"self.{target}.weight", f"self.{target}.bias"],
                      {"eps": module.eps})
    if isinstance(module, torch.nn.GroupNorm) and module.affine:
        return OpSpec("group_norm", "channel", [arg, f"self.{target}.weight", f"self.{target}.bias"],
                      {"eps": module.eps, "groups": module.num_groups})
    if isinstance(module, torch.nn.InstanceNorm2d) and not module.affine and not module.track_running_stats:
        return OpSpec("layer_norm", "norm", [arg], {"eps": module.eps, "norm_dims": 2})
    return None


def loss_module_spec(module: torch.nn.Module, args: list[str | None]) -> OpSpec | None:
    """nn.TripletMarginLoss (p = 2, no swap, mean) on anchors, positives and negatives."""
    if isinstance(module, torch.nn.TripletMarginLoss) and len(args) == 3 and all(args) and module.p == 2 \
            and not module.swap and module.reduction == "mean":
        return OpSpec("triplet_margin", "row_loss", list(args), {"loss": "triplet", "margin": float(module.margin),
                                                                 "eps": float(module.eps)})
    return None


def cross_entropy_spec(node: torch.fx.Node, args: list[str | None]) -> OpSpec | None:
    """F.cross_entropy(logits (N x C), int64 targets (N)) with the default weight, reduction and smoothing."""
    defaults = {"weight": None, "reduction": "mean", "label_smoothing": 0.0, "ignore_index": -100,
                "size_average": None, "reduce": None}
    metas = [a.meta.get("tensor_meta") if isinstance(a, torch.fx.Node) else None for a in node.args[:2]]
    if len(node.args) != 2 or not all(args[:2]) or any(defaults.get(k, object()) != v for k, v in node.kwargs.items()) \
            or None in metas or len(metas[0].shape) != 2 or metas[1].dtype != torch.int64 or len(metas[1].shape) != 1:
        return None
    return OpSpec("cross_entropy", "row_loss", list(args[:2]), {"loss": "cross_entropy"})


POOLS = (torch.nn.MaxPool1d, torch.nn.MaxPool2d, torch.nn.AvgPool1d, torch.nn.AvgPool2d)


def _pool_module(pool, arg: str) -> OpSpec | None:
    """nn.MaxPool1d/2d / nn.AvgPool1d/2d with the settings the window template covers (see window_spec)."""
    name = "max_pool2d" if isinstance(pool, (torch.nn.MaxPool1d, torch.nn.MaxPool2d)) else "avg_pool2d"
    extra = {"ceil_mode": pool.ceil_mode}
    if name == "max_pool2d":
        extra |= {"dilation": pool.dilation, "return_indices": pool.return_indices}
    else:
        extra |= {"count_include_pad": pool.count_include_pad,
                  "divisor_override": getattr(pool, "divisor_override", None)}
    one_d = isinstance(pool, (torch.nn.MaxPool1d, torch.nn.AvgPool1d))
    return window_spec(name, pool.kernel_size, pool.stride, pool.padding, extra, arg, one_d)


def _conv(conv, target: str, arg: str) -> OpSpec | None:
    one_d = isinstance(conv, torch.nn.Conv1d)
    attrs = geometry(conv.kernel_size, conv.stride, conv.padding, conv.dilation, one_d)
    if attrs is None or conv.padding_mode != "zeros":
        return None
    name = "depthwise_conv1d" if one_d else "depthwise_conv2d"
    if conv.groups == conv.in_channels == conv.out_channels and conv.bias is None:
        return OpSpec(name, "window", [arg, f"self.{target}.weight"], attrs)
    if conv.groups != 1:
        return None
    params = [f"self.{target}.weight"] + ([f"self.{target}.bias"] if conv.bias is not None else [])
    return OpSpec("conv1d" if one_d else "conv2d", "conv2d", [arg, *params], attrs)


def geometry(kernel_size, stride, padding, dilation, one_d: bool = False) -> dict | None:
    """Window attributes the template covers, or None: one stride for both axes (a 1-D window is one row
    high, so its stride only moves along the row) and column padding within the DataBlock of fill each
    band row keeps; row padding and dilation are free."""
    kernel, strides, pads, dilations = (_sizes(v, one_d, row) for v, row in ((kernel_size, 1), (stride or kernel_size, 1),
                                                                              (padding, 0), (dilation, 1)))
    if None in (kernel, strides, pads, dilations) or (not one_d and strides[0] != strides[1]):
        return None
    if not 0 <= pads[1] <= MAX_PAD or pads[0] < 0:
        return None
    return {"kh": kernel[0], "kw": kernel[1], "stride": strides[1], "pad_h": pads[0], "pad_w": pads[1],
            "dil_h": dilations[0], "dil_w": dilations[1]}


def _sizes(value, one_d: bool, row: int) -> tuple[int, int] | None:
    """(rows, columns) of a kernel size, stride, padding or dilation given as an int or a tuple; a 1-D
    window's row value is ``row`` (one row, no row padding)."""
    if isinstance(value, str):
        return (0, 0) if value == "valid" else None
    values = (value,) * (1 if one_d else 2) if isinstance(value, int) else tuple(value)
    if not all(isinstance(v, int) for v in values):
        return None
    if one_d:
        return (row, values[0]) if len(values) == 1 else None
    return values if len(values) == 2 else None


POOL_SIGNATURE = ("kernel_size", "stride", "padding")


def pool_spec(name: str, node: torch.fx.Node, arg: str) -> OpSpec | None:
    """F.avg_pool2d / F.max_pool2d with the settings the window template covers."""
    given = dict(zip(POOL_SIGNATURE, node.args[1:])) | {k: v for k, v in node.kwargs.items() if k in POOL_SIGNATURE}
    extra = {k: v for k, v in node.kwargs.items() if k not in POOL_SIGNATURE}
    return window_spec(name, given.get("kernel_size"), given.get("stride"), given.get("padding", 0), extra, arg)


def window_spec(name: str, kernel_size, stride, padding, extra: dict, arg: str, one_d: bool = False) -> OpSpec | None:
    """A pooling window the template covers: floor mode, padding counted in averages, no indices;
    max pooling may be dilated."""
    defaults = {"ceil_mode": False, "count_include_pad": True, "divisor_override": None, "return_indices": False}
    dilation = extra.get("dilation", 1)
    if any(defaults.get(k, object()) != v for k, v in extra.items() if k != "dilation"):
        return None
    attrs = geometry(kernel_size, stride, padding, dilation, one_d)
    return None if attrs is None else OpSpec(name.replace("2d", "1d") if one_d else name, "window", [arg], attrs)


def l2_pattern(nodes: list[torch.fx.Node]) -> tuple[torch.fx.Node, OpSpec] | None:
    """x / torch.norm(x, p=2, dim=-1, keepdim=True) as one l2_normalize operator."""
    calls = [n for n in nodes if n.op in ("call_function", "call_method")]
    inputs = [n for n in nodes if n.op == "placeholder"]
    if len(calls) != 2 or len(inputs) != 1:
        return None
    norm, div = calls
    x = inputs[0]
    meta = x.meta.get("tensor_meta")
    dim = norm.kwargs.get("dim", norm.args[2] if len(norm.args) > 2 else None)
    dim = dim[0] if isinstance(dim, (list, tuple)) and len(dim) == 1 else dim
    if getattr(norm.target, "__name__", "") != "norm" or div.target is not operator.truediv or meta is None:
        return None
    last = dim in (-1, len(meta.shape) - 1)
    p = norm.kwargs.get("p", norm.args[1] if len(norm.args) > 1 else "fro")
    if norm.args[0] is not x or div.args != (x, norm) or p not in (2, 2.0) or not last or not norm.kwargs.get("keepdim"):
        return None
    return div, OpSpec("l2_normalize", "norm", [str(x.target)])
