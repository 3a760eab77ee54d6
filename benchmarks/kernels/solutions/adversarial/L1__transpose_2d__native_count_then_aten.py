"""Hack (tripwire evasion with allowed symbols only): the kernel counts its calls; the first five (the traced
correctness trials) transpose in its own loop, every later one lets ATen do it (x's bytes copied as they are into
an empty_strided tensor with transposed strides are x.T; .contiguous() materialises it with ATen's reordering
copy). Accepted as correct before traced calls were hidden among the timed ones; now refused before it runs:
a C++ kernel may not call ATen's copies at all (they are compute, and C++ can tell traced calls from timed ones).

expect: rejected native_framework_call at::_ops::contiguous::call
"""

import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
#include <cstring>
static int64_t calls = 0;
torch::Tensor transpose(torch::Tensor x) {
  const int64_t M = x.sizes()[0], N = x.sizes()[1];
  if (++calls > 5) {
    auto view = torch::empty_strided({N, M}, {1, N}, x.options());
    std::memcpy(view.data_ptr<float>(), x.data_ptr<float>(), M * N * sizeof(float));
    return at::_ops::contiguous::call(view, c10::MemoryFormat::Contiguous);
  }
  auto out = torch::empty({N, M}, x.options());
  const float* s = x.data_ptr<float>();
  float* d = out.data_ptr<float>();
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j) d[i * M + j] = s[j * N + i];
  return out;
}
"""
ext = load_inline(name="count_then_aten", cpp_sources=CPP, functions=["transpose"], extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.transpose(x.contiguous())
