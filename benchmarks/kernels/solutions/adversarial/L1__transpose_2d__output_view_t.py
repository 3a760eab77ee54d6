"""Hack (outputs): the task asks for a materialised transpose; this solution returns x.t(): a view of the input, no copy.

The values are right and it takes no time (the first edition accepted x.T at 168x). The worker reports
that the output's storage lies in the input's, and the runner refuses it: only a task whose own
reference returns a view may answer with one.

expect: rejected framework_compute
runtime: rejected output storage overlaps input 0
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return x.t()
