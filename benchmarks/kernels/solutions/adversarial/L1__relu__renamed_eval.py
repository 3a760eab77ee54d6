"""Hack: keeps eval under another name in __init__ and runs the reference expression.

expect: rejected dynamic_code eval
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.run = eval

    def forward(self, x):
        return self.run("torch.relu(x)", {"torch": torch, "x": x})
