"""The chunk stream's PREFETCH order: the same results, and fewer simulated cycles when a chunk's copy-in
is issued before the scalar reads of the chunk before it (only with a second queue buffer)."""

import pytest
import torch

from benchmarks.kernels.verifier.static_checks import check_solution
from sandboxes.targets.npu.launch import capture
from sandboxes.targets.npu.templates import get_template, render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.registry import get_target
from tests.sandboxes.targets.npu.templates.test_init import load

NORM = OpSpec("add+layer_norm+relu", "norm", ["x", "r"], {"norm": "layer_norm", "prologue": "add",
                                                          "stages": [OpSpec("relu", "elementwise", ["v1"])]})
CASES = {
    "softmax": (OpSpec("softmax", "softmax", ["x"]), "run_softmax", lambda: (torch.randn(4, 3000) * 4,)),
    "norm": (NORM, "run_norm", lambda: (torch.randn(6, 3000), torch.randn(3000), torch.randn(3000),
                                        torch.randn(6, 3000))),
    "argmax": (OpSpec("argmax_rows", "row_reduce", ["x"]), "run_row_reduce", lambda: (torch.randn(5, 2500),)),
    "triplet": (OpSpec("triplet", "row_loss", ["a", "p", "n"], {"loss": "triplet", "margin": 0.5, "eps": 1e-6}),
                "run_row_loss", lambda: tuple(torch.randn(3, 6, 3000).unbind(0))),
    "masked_cumsum": (OpSpec("cumsum_masked", "scan", ["x", "m"]), "run_scan",
                      lambda: (torch.randn(4, 3000), torch.rand(4, 3000) > 0.5)),
}


def run(spec, host, inputs, **params):
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024, "BLOCK_DIM": 2, **params}))
    with capture() as launches:
        out = getattr(module, host)(*inputs)
    return out, sum(launch.cycles for launch in launches)


@pytest.mark.parametrize("case", sorted(CASES))
def test_prefetch_gives_the_same_result_in_fewer_cycles_with_two_buffers(case):
    spec, host, make = CASES[case]
    torch.manual_seed(0)
    inputs = make()
    on_demand, slow = run(spec, host, inputs, PREFETCH=0)
    ahead, fast = run(spec, host, inputs, PREFETCH=1)
    assert torch.equal(on_demand, ahead)
    assert fast < 0.97 * slow  # MTE2 no longer idles through the scalar waits
    assert run(spec, host, inputs, PREFETCH=1, BUFFER_NUM=1)[1] == run(spec, host, inputs, PREFETCH=0, BUFFER_NUM=1)[1]


def test_the_families_that_stream_expose_prefetch_off_by_default():
    for family in ("softmax", "norm", "row_reduce", "row_loss", "scan"):
        template = get_template(family)
        assert template.space["PREFETCH"] == [0, 1] and template.defaults["PREFETCH"] == 0


@pytest.mark.parametrize("spec", [CASES[c][0] for c in sorted(CASES)] + [
    OpSpec("cross_entropy", "row_loss", ["x", "t"], {"loss": "cross_entropy"}),
    OpSpec("hinge", "row_loss", ["x", "t"], {"loss": "hinge"}), OpSpec("cumsum", "scan", ["x"], {"reverse": True})])
def test_streaming_kernels_pass_the_verifiers_static_checks(spec):
    """No state kept across calls (the stream's position is the kernel's loop index), whichever order."""
    for prefetch in (0, 1):
        found = check_solution(render_kernel(spec, {"PREFETCH": prefetch}), get_target("npu"))
        assert [v for v in found if v.rule != "interface"] == []  # a kernel module, not yet a ModelNew solution
