"""The elementwise family's FUSE: fused stages in one launch, or one launch per stage through GM."""

import torch

from benchmarks.kernels.verifier.static_checks import check_solution
from sandboxes.targets.npu.launch import capture
from sandboxes.targets.npu.templates import get_template, render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.registry import get_target
from tests.sandboxes.targets.npu.templates.test_init import load

CHAIN = OpSpec("scale_shift+add+tanh", "elementwise", ["a", "b"], {"stages": [
    OpSpec("scale_shift", "elementwise", ["a"], {"scale": 2.0, "shift": -1.0}),
    OpSpec("add", "elementwise", ["v0", "b"]), OpSpec("tanh", "elementwise", ["v1"])]})


def run(spec, inputs, fuse):
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024, "BLOCK_DIM": 2, "FUSE": fuse}))
    with capture() as launches:
        out = module.run_elementwise(*inputs)
    return out, launches


def test_unfused_stages_run_one_launch_each_and_cost_more_cycles():
    a, b = torch.randn(5000), torch.randn(5000)
    fused, one = run(CHAIN, (a, b), 1)
    separate, three = run(CHAIN, (a, b), 0)
    torch.testing.assert_close(fused, torch.tanh(a * 2 - 1 + b), atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(separate, fused, atol=1e-6, rtol=1e-6)
    assert len(one) == 1 and len(three) == 3
    assert sum(launch.cycles for launch in three) > 1.5 * one[0].cycles  # launches and GM round trips
    found = check_solution(render_kernel(CHAIN, {"FUSE": 0}), get_target("npu"))
    assert [v for v in found if v.rule != "interface"] == []  # a kernel module, not yet a ModelNew solution


def test_fuse_only_changes_operators_with_stages():
    x = torch.randn(3000)
    (y0, plain0), (y1, plain1) = run(OpSpec("relu", "elementwise", ["x"]), (x,), 0), \
        run(OpSpec("relu", "elementwise", ["x"]), (x,), 1)
    assert torch.equal(y0, y1) and plain0[0].cycles == plain1[0].cycles
    template = get_template("elementwise")
    assert "FUSE" in template.space_for(CHAIN) and "FUSE" not in template.space_for(OpSpec("relu", "elementwise", ["x"]))
