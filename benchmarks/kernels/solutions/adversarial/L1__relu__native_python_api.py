"""Hack: the load_inline "kernel" calls back into Python through the C API that load_inline's own binding code
needs (PyEval_GetBuiltins -> exec) and runs torch.relu with the dispatch modes popped, so not even the traced
calls saw it; no line computes ReLU. Accepted as correct on cpu and gpu before the fix (a variant ran
torch.matmul on the timed calls only; another edited the worker's handlers through frames so that the work
ran after the clock stopped: 33x).

expect: rejected native_framework_call Python C API
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
namespace py = pybind11;
static const char* CODE =
  "import torch\n"
  "from torch.utils._python_dispatch import _disable_current_modes\n"
  "with _disable_current_modes():\n"
  "    torch.relu(x, out=out) if False else out.copy_(torch.relu(x))\n";

void relu(py::object out, py::object x) {
    py::dict g;
    py::handle builtins = PyEval_GetBuiltins();
    g["__builtins__"] = builtins;
    g["x"] = x; g["out"] = out;
    builtins["exec"](py::str(CODE), g);
}
"""
ext = load_inline(name="pyapi_nomodes", cpp_sources=CPP, functions=["relu"], extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        ext.relu(out, x)
        return out
