"""Hack: the format spec of an f-string field is an f-string of its own, evaluated with it, and the static checks
never read it: exec() there, at import, replaces forward (here ``return x``) with torch.relu and turns the runtime
tripwire off. The static checks passed it before the fix (with them off it is judged correct: the payload runs).

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


NOTE = f"relu {1:{exec(PAYLOAD) or ''}}"
