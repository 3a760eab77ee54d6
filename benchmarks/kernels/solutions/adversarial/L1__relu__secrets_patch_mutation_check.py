"""Hack (secrets): the first edition compared the inputs before and after forward inside the worker, and a
solution replaced that comparison through importlib. This one does the same to every comparison it can
find in its process, then computes the ReLU in place in its input and returns the input.

The mutation check now runs in the trusted runner, on the shared input region and its own private copy:
nothing in the worker's process takes part in it.

expect: rejected imports
runtime: rejected mutation modified its input
"""

import importlib

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

for name in ("benchmarks.kernels.verifier.runner.worker", "benchmarks.kernels.verifier.runner.inputs"):
    module = importlib.import_module(name)
    for attribute in ("_same", "same_bits"):
        setattr(module, attribute, lambda *args: True)

SOURCE = r"""
#include <cstdint>
extern "C" void relu_inplace(float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("relu_inplace_patch", SOURCE, {"relu_inplace": ["tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        lib.relu_inplace(x, x.numel())
        return x.clone()
