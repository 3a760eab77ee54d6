"""A KernelBench-style load_inline extension built by torch's own machinery inside the sandbox."""

import pytest
import torch

from sandboxes.targets import native
from sandboxes.targets.cpu import CpuTarget

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


@pytest.mark.slow
def test_load_inline_builds_loads_and_runs(fresh_cache, sandbox):
    target = CpuTarget(fresh_cache)
    resolver = native.ExtensionResolver(fresh_cache.root, target.builder.salt)
    native.activate(resolver)
    native.load_inline(name="plus", cpp_sources=CPP, functions=["plus_one"], extra_cflags=["-O2", ""])
    outcome = target.build(resolver.pending[0], sandbox)
    assert outcome.ok, outcome.error
    module = native.load_inline(name="plus", cpp_sources=CPP, functions=["plus_one"], extra_cflags=["-O2", ""])
    assert module.plus_one(torch.zeros(3)).tolist() == [1.0, 1.0, 1.0]


ASM_UNDER_THE_BUILDS_STANDARD = CPP.replace("auto out", """#if __cplusplus != 201703L
    asm volatile("nop");
#endif
    auto out""")


@pytest.mark.slow
def test_the_check_reads_the_source_as_torchs_build_compiled_it(fresh_cache, sandbox):
    """torch's ninja compiles main.cpp with its own flags (-std=c++20 in torch 2.13): asm that only those flags
    select is compiled, so it must be in the checked text (a separate -std=c++17 -E missed it)."""
    target = CpuTarget(fresh_cache)
    resolver = native.ExtensionResolver(fresh_cache.root, target.builder.salt)
    native.activate(resolver)
    native.load_inline(name="plus", cpp_sources=ASM_UNDER_THE_BUILDS_STANDARD, functions=["plus_one"])
    outcome = target.build(resolver.pending[0], sandbox)
    assert not outcome.ok and outcome.rejected and "[native_asm]" in outcome.error
