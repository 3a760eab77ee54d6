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
