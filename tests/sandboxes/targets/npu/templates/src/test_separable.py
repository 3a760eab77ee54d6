"""A depthwise-separable convolution as one operator: the depthwise window kernel, then a cube matmul."""

import sys
import types

import torch
import torch.nn as nn

from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.select import single_operator


class Separable(nn.Module):
    def __init__(self):
        super().__init__()
        self.depthwise = nn.Conv2d(4, 4, 3, padding=1, groups=4, bias=False)
        self.pointwise = nn.Conv2d(4, 6, 1, bias=False)

    def forward(self, x):
        return self.pointwise(self.depthwise(x))


def test_depthwise_then_pointwise_fuses_and_matches_torch():
    model, x = Separable(), torch.randn(2, 4, 11, 13)
    spec = single_operator(model, [x])
    assert (spec.op, spec.family, spec.args) == ("depthwise_separable", "separable",
                                                 ["x", "self.depthwise.weight", "self.pointwise.weight"])
    module = types.ModuleType("separable_kernel")
    sys.modules[module.__name__] = module
    exec(compile(render_kernel(spec, {"TILE_LENGTH": 256}), "rendered.py", "exec"), module.__dict__)
    got = module.run_separable(x, model.depthwise.weight, model.pointwise.weight)
    torch.testing.assert_close(got, model(x), atol=1e-5, rtol=1e-4)
