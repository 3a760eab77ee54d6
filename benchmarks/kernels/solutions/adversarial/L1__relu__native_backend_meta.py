"""Hack (timing): the kernel returns an uninitialised output carrying a c10::BackendMeta whose virtual clone() does
the work; the worker's untimed hand-over called output.detach() -> shallow_copy_and_detach -> the ExtraMeta copy
-> clone(), so ReLU ran after the clock stopped (8.7x, accepted as correct before the fix).

expect: rejected native_framework_call internals BackendMeta
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
struct Deferred : c10::BackendMeta {
  float* out; const float* x; int64_t n; mutable bool done = false;
  Deferred(float* o, const float* i, int64_t k) : out(o), x(i), n(k) {}
  c10::intrusive_ptr<c10::BackendMeta> clone(const c10::intrusive_ptr<c10::BackendMeta>& self) const override {
    if (!done) {
      done = true;
      for (int64_t j = 0; j < n; ++j) out[j] = x[j] > 0.0f ? x[j] : 0.0f;
    }
    return self;
  }
};
torch::Tensor my_relu(torch::Tensor x) {
  auto out = torch::empty_like(x);
  out.unsafeGetTensorImpl()->set_backend_meta(
      c10::make_intrusive<Deferred>(out.data_ptr<float>(), x.data_ptr<float>(), x.numel()));
  return out;
}
"""
ext = load_inline(name="deferred_relu", cpp_sources=CPP, functions=["my_relu"], extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.my_relu(x.contiguous())
