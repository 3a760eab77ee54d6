"""The exception that ends an evaluation early with a status, the stage that decided it and a reason."""

from __future__ import annotations

from typing import Any

STAGES = ("load", "run", "correctness", "precision", "output", "mutation", "tripwire", "isolation", "timing")
"""Runner stages a verdict names: loading the model, running a call, output values on the correctness
trials, precision against float64, output kind and aliasing, input mutation, the tripwire, the solution
worker's confinement (it was killed for a forbidden system call), the timed calls."""


class Verdict(Exception):
    """Ends the evaluation with a status, a stage (one of :data:`STAGES`) and a reason."""

    def __init__(self, status: str, reason: str, stage: str = "run", **fields: Any) -> None:
        super().__init__(reason)
        self.status, self.reason, self.stage, self.fields = status, reason, stage, fields
