"""x / ||x||_F on the simulator: a reduction of squares, then a scaling pass reading the sum from GM."""

import sys
import types

import torch
import torch.nn as nn

from sandboxes.targets.npu.launch import capture
from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.npu.templates.select import single_operator


class Frobenius(nn.Module):
    def forward(self, x):
        return x / torch.norm(x, p="fro")


def test_frobenius_normalisation_is_recognised_and_matches_torch():
    x = torch.randn(3, 5, 700)
    spec = single_operator(Frobenius(), [x])
    assert (spec.op, spec.family) == ("frobenius_normalize", "global_norm")
    module = types.ModuleType("global_norm_kernel")
    sys.modules[module.__name__] = module
    exec(compile(render_kernel(spec, {"TILE_LENGTH": 1024, "BLOCK_DIM": 5}), "rendered.py", "exec"), module.__dict__)
    with capture() as launches:
        got = module.run_global_norm(x)
    torch.testing.assert_close(got, Frobenius()(x), atol=1e-6, rtol=1e-5)
    assert [launch.kernel for launch in launches] == ["partial_sum_kernel", "combine_kernel", "scale_kernel"]
