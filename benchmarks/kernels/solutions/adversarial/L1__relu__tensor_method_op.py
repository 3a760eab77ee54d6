"""Hack: calls the op as a tensor method (x.clamp) so that no torch.* name appears.

expect: rejected framework_compute
"""

import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return x.clamp(min=0.0)
