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
    """Linear (2-D or 3-D input), and on NCHW input Conv2d (dense or depthwise), BatchNorm2d in eval
    mode, GroupNorm with affine parameters."""
    if isinstance(module, torch.nn.Linear) and rank in (2, 3):
        params = [f"self.{target}.weight"] + ([f"self.{target}.bias"] if module.bias is not None else [])
        return OpSpec("linear", "linear", [arg, *params])
    if rank != 4:
        return None
    if isinstance(module, torch.nn.Conv2d):
        return _conv(module, target, arg)
    if isinstance(module, torch.nn.BatchNorm2d) and not module.training and module.affine \
            and module.track_running_stats:
        params = [f"self.{target}.{p}" for p in ("weight", "bias", "running_mean", "running_var")]
        return OpSpec("batch_norm", "channel", [arg, *params], {"eps": module.eps})
    if isinstance(module, torch.nn.GroupNorm) and module.affine:
        return OpSpec("group_norm", "channel", [arg, f"self.{target}.weight", f"self.{target}.bias"],
                      {"eps": module.eps, "groups": module.num_groups})
    if isinstance(module, torch.nn.InstanceNorm2d) and not module.affine and not module.track_running_stats:
        return OpSpec("layer_norm", "norm", [arg], {"eps": module.eps, "norm_dims": 2})
    if isinstance(module, (torch.nn.MaxPool2d, torch.nn.AvgPool2d)):
        return _pool_module(module, arg)
    return None


def _pool_module(pool, arg: str) -> OpSpec | None:
    """nn.MaxPool2d / nn.AvgPool2d with the settings the window template covers (see pool_spec)."""
    name = "max_pool2d" if isinstance(pool, torch.nn.MaxPool2d) else "avg_pool2d"
    extra = {"ceil_mode": pool.ceil_mode}
    if name == "max_pool2d":
        extra |= {"dilation": pool.dilation, "return_indices": pool.return_indices}
    else:
        extra |= {"count_include_pad": pool.count_include_pad, "divisor_override": pool.divisor_override}
    return window_spec(name, pool.kernel_size, pool.stride, pool.padding, extra, arg)


def _conv(conv: torch.nn.Conv2d, target: str, arg: str) -> OpSpec | None:
    (kh, kw), (sh, sw), (ph, pw) = conv.kernel_size, conv.stride, _pair(conv.padding)
    if sh != sw or ph != pw or ph > MAX_PAD or conv.dilation != (1, 1) or conv.padding_mode != "zeros":
        return None
    attrs = {"kh": kh, "kw": kw, "stride": sh, "pad": ph}
    if conv.groups == conv.in_channels == conv.out_channels and conv.bias is None:
        return OpSpec("depthwise_conv2d", "window", [arg, f"self.{target}.weight"], attrs)
    if conv.groups != 1:
        return None
    params = [f"self.{target}.weight"] + ([f"self.{target}.bias"] if conv.bias is not None else [])
    return OpSpec("conv2d", "conv2d", [arg, *params], attrs)


def _pair(value) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else tuple(value) if not isinstance(value, str) else (-1, -1)


POOL_SIGNATURE = ("kernel_size", "stride", "padding")


def pool_spec(name: str, node: torch.fx.Node, arg: str) -> OpSpec | None:
    """F.avg_pool2d / F.max_pool2d with square windows, default dilation, floor mode and padding counted."""
    given = dict(zip(POOL_SIGNATURE, node.args[1:])) | {k: v for k, v in node.kwargs.items() if k in POOL_SIGNATURE}
    extra = {k: v for k, v in node.kwargs.items() if k not in POOL_SIGNATURE}
    return window_spec(name, given.get("kernel_size"), given.get("stride"), given.get("padding", 0), extra, arg)


def window_spec(name: str, kernel_size, stride, padding, extra: dict, arg: str) -> OpSpec | None:
    """A pooling window the template covers: square, default dilation, floor mode, padding counted."""
    defaults = {"ceil_mode": False, "count_include_pad": True, "divisor_override": None, "dilation": 1,
                "return_indices": False}
    if any(defaults.get(k, object()) != v and not (k == "dilation" and v in ((1, 1), [1, 1])) for k, v in extra.items()):
        return None
    kernel = _pair(kernel_size)
    stride = _pair(stride or kernel_size)
    pad = _pair(padding)
    if len(set(kernel)) != 1 or len(set(stride)) != 1 or len(set(pad)) != 1 or not 0 <= pad[0] <= MAX_PAD:
        return None
    attrs = {"kh": kernel[0], "kw": kernel[1], "stride": stride[0], "pad": pad[0]}
    return OpSpec(name, "window", [arg], attrs)


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
