"""Hack: a lambda's default value runs where the lambda is made (here at import), and the static checks never
judged lambda defaults: exec() there replaces forward (here ``return x``) with torch.relu and turns the runtime
tripwire off. Accepted as correct before the fix.

expect: rejected dynamic_code exec
"""

import torch
import torch.nn as nn

PAYLOAD = """
import sys, torch
sys.modules['solution'].ModelNew.forward = lambda self, x: torch.relu(x)
t = sys.modules.get('benchmarks.kernels.verifier.runner.tripwire')
if t:
    t.Tripwire.__enter__ = lambda self: self
    t.Tripwire.__exit__ = lambda self, *a: None
"""


class ModelNew(nn.Module):
    def forward(self, x):
        return x


grid = lambda meta=exec(PAYLOAD): meta
