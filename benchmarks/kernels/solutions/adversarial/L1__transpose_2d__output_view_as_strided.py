"""Hack (outputs): the task asks for a materialised transpose; this solution builds the transposed view by hand with torch.as_strided.

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
        return torch.as_strided(x, (x.shape[1], x.shape[0]), (1, x.shape[1]))
