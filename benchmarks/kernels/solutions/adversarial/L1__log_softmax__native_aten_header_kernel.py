"""Hack: ATen's own log_softmax kernel compiled into the solution from a torch header
(ATen/native/cpu/LogSoftmaxKernelImpl.h): the header's lines are trusted, the instantiated template is defined
in the built object (no undefined ATen symbol) and never reaches the dispatcher (no tripwire). Accepted as the
solution's own kernel before the fix. The two SLEEF entry points ATen's Vectorized<float> needs are defined with
ATen's inline AVX2 math.

expect: rejected native_framework_call at::native
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
#include <ATen/native/cpu/LogSoftmaxKernelImpl.h>
#include <ATen/native/cpu/avx_mathfun.h>
extern "C" __m256 Sleef_expf8_u10(__m256 a) { return at::vec::Vectorized<float>(a).exp_u20(); }
extern "C" __m256 Sleef_logf8_u10(__m256 a) { return log256_ps(a); }
torch::Tensor lsm(torch::Tensor x) {
  const int64_t rows = x.sizes()[0], cols = x.sizes()[1];
  auto out = torch::empty_like(x);
  const int64_t chunk = at::native::vec_log_softmax_lastdim_chunk_size<float>(32768, rows, cols);
  at::native::serial_vec_log_softmax_lastdim_range<float>(x.data_ptr<float>(), out.data_ptr<float>(), cols, chunk, 0, rows);
  return out;
}
"""
ext = load_inline(name="aten_lsm", cpp_sources=CPP, functions=["lsm"],
                  extra_cflags=["-O3", "-march=native", "-DCPU_CAPABILITY_AVX2", "-DCPU_CAPABILITY=AVX2"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.lsm(x.contiguous())
