"""A KernelBench-style load_inline extension built by torch's own machinery inside the sandbox."""

import pytest
import torch

from sandboxes.targets import native
from sandboxes.targets.cpu import CpuTarget
from tests.warm_builds import spec_builds

CPP = r"""
#include <torch/extension.h>
torch::Tensor plus_one(torch::Tensor x) {
    auto out = torch::empty_like(x);
    const float* in = x.data_ptr<float>();
    float* o = out.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) o[i] = in[i] + 1.0f;
    return out;
}
"""


PLUS_ONE = dict(name="plus", cpp_sources=CPP, functions=["plus_one"], extra_cflags=["-O2", ""])
ASM_UNDER_THE_BUILDS_STANDARD = dict(PLUS_ONE, cpp_sources=CPP.replace("auto out", """#if __cplusplus != 201703L
    asm volatile("nop");
#endif
    auto out"""))


@pytest.mark.slow
@pytest.mark.warm_build(spec_builds(CpuTarget, native.inline_spec(**PLUS_ONE)))
def test_load_inline_builds_loads_and_runs(warm_cache, sandbox):
    target = CpuTarget(warm_cache)
    outcome = target.build(native.inline_spec(**PLUS_ONE), sandbox)
    assert outcome.ok, outcome.error
    native.activate(native.ExtensionResolver(warm_cache.root, target.builder.salt))
    module = native.load_inline(**PLUS_ONE)
    assert module.plus_one(torch.zeros(3)).tolist() == [1.0, 1.0, 1.0]


@pytest.mark.slow
@pytest.mark.warm_build(spec_builds(CpuTarget, native.inline_spec(**ASM_UNDER_THE_BUILDS_STANDARD)))
def test_the_check_reads_the_source_as_torchs_build_compiled_it(warm_cache, sandbox):
    """torch's ninja compiles main.cpp with its own flags (-std=c++20 in torch 2.13): asm that only those flags
    select is compiled, so it must be in the checked text (a separate -std=c++17 -E missed it)."""
    outcome = CpuTarget(warm_cache).build(native.inline_spec(**ASM_UNDER_THE_BUILDS_STANDARD), sandbox)
    assert not outcome.ok and outcome.rejected and "[native_asm]" in outcome.error
