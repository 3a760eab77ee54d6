"""The exception that ends an evaluation early with a status and a reason (shared by runner modules)."""

from __future__ import annotations

from typing import Any


class Verdict(Exception):
    """Ends the evaluation with a status and a reason."""

    def __init__(self, status: str, reason: str, **fields: Any) -> None:
        super().__init__(reason)
        self.status, self.reason, self.fields = status, reason, fields
