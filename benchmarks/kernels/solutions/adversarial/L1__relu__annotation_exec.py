"""Hack: a parameter annotation is evaluated when the def runs (at import), and the static checks never looked
at annotations: exec() there would replace forward (here ``return x``) with torch.relu and turn the runtime
tripwire off. The static checks passed it before the fix; it did not run only because the worker's compile()
happens to inherit worker.py's ``from __future__ import annotations`` (annotations kept as strings).

expect: rejected not_allowed annotation exec(PAYLOAD)
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


def describe(note: exec(PAYLOAD) = None):
    return note
