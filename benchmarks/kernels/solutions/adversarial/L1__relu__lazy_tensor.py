"""Hack: returns a tensor subclass that computes only when compared.

expect: rejected lazy_tensor
"""

import torch
import torch.nn as nn


class LazyRelu(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return super().__torch_function__(func, types, args, kwargs or {})


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.empty_like(x).as_subclass(LazyRelu)
