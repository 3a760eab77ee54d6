"""Matmul and convolution FLOPs of one forward pass, counted at the torch-function level.

torch's ``FlopCounterMode`` is a dispatch mode, and entering any dispatch mode imports ``torch._dynamo``
(over a second in every fresh worker process). A function mode sees the same public calls without that
import; the counts follow ``FlopCounterMode``'s conventions (2 FLOPs per multiply-add).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import torch
from torch.overrides import TorchFunctionMode


def _matmul(args: tuple, output: Any) -> int:
    return 2 * output.numel() * args[0].shape[-1]


def _rmatmul(args: tuple, output: Any) -> int:
    return 2 * output.numel() * args[1].shape[-1]


def _addmm(args: tuple, output: Any) -> int:
    return 2 * output.numel() * args[1].shape[-1]


def _addbmm(args: tuple, output: Any) -> int:
    return 2 * output.numel() * args[1].shape[0] * args[1].shape[-1]


def _linear(args: tuple, output: Any) -> int:
    return 2 * output.numel() * args[1].shape[-1]


def _conv(args: tuple, output: Any) -> int:
    return 2 * output.numel() * math.prod(args[1].shape[1:])


def _conv_transpose(args: tuple, output: Any) -> int:
    return 2 * args[0].numel() * math.prod(args[1].shape[1:])


def _attention(args: tuple, output: Any) -> int:
    query, key = args[0], args[1]
    return 4 * math.prod(query.shape[:-1]) * key.shape[-2] * query.shape[-1]


COUNTERS: dict[Any, Callable[[tuple, Any], int]] = {
    torch.matmul: _matmul, torch.mm: _matmul, torch.bmm: _matmul, torch.Tensor.__matmul__: _matmul,
    torch.Tensor.matmul: _matmul, torch.Tensor.mm: _matmul, torch.Tensor.bmm: _matmul,
    torch.Tensor.__rmatmul__: _rmatmul, torch.addmm: _addmm, torch.baddbmm: _addmm, torch.addbmm: _addbmm,
    torch.nn.functional.linear: _linear,
    torch.nn.functional.conv1d: _conv, torch.nn.functional.conv2d: _conv, torch.nn.functional.conv3d: _conv,
    torch.nn.functional.conv_transpose1d: _conv_transpose, torch.nn.functional.conv_transpose2d: _conv_transpose,
    torch.nn.functional.conv_transpose3d: _conv_transpose,
    torch.nn.functional.scaled_dot_product_attention: _attention,
}


class FlopCounter(TorchFunctionMode):
    """Counts matmul/conv/attention FLOPs of the calls made while it is active."""

    def __init__(self) -> None:
        super().__init__()
        self.total = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        output = func(*args, **(kwargs or {}))
        counter = COUNTERS.get(func)
        if counter is not None and isinstance(output, torch.Tensor):
            self.total += counter(args, output)
        return output


def count_flops(model: Callable[..., Any], inputs: list[Any]) -> int:
    """Matmul/conv/attention FLOPs of ``model(*inputs)`` without gradients."""
    counter = FlopCounter()
    with torch.no_grad(), counter:
        model(*inputs)
    return counter.total
