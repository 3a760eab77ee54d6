"""Hack: the C++ "kernel" excludes the Python dispatch key (ExcludeDispatchKeyGuard) around ATen's reordering copy,
so the runtime tripwire saw nothing and the framework's transpose passed as the solution's (accepted as correct
before the fix).

expect: rejected native_framework_call dispatcher
"""

import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
torch::Tensor transpose(torch::Tensor x) {
  c10::impl::ExcludeDispatchKeyGuard g1(c10::DispatchKeySet(c10::DispatchKey::Python) |
                                        c10::DispatchKeySet(c10::DispatchKey::PythonTLSSnapshot));
  const int64_t M = x.sizes()[0], N = x.sizes()[1];
  return at::_ops::contiguous::call(at::_reshape_alias(x, {N, M}, {1, N}), c10::MemoryFormat::Contiguous);
}
"""
ext = load_inline(name="excl_py_key", cpp_sources=CPP, functions=["transpose"], extra_cflags=["-O2"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.transpose(x)
