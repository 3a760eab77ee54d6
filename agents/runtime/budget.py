"""Per-run budgets in money, tokens and calls, and the running totals they are checked against."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import NonNegativeFloat, NonNegativeInt

from sandboxes.settings import Config


class BudgetExceeded(Exception):
    """The run's budget is spent; the run stops cleanly at its last checkpoint."""

    def __init__(self, message: str, option: str = "--max-cost-usd"):
        super().__init__(message)
        self.option = option
        """The command-line option that raises the limit that ran out."""


class Budget(Config):
    """Limits on what one run may spend on model calls (None = unlimited)."""

    max_cost_usd: NonNegativeFloat | None = None
    """Stop before the next model call once this many US dollars are spent."""
    max_tokens: NonNegativeInt | None = None
    """Stop before the next model call once this many tokens (in + out) are used."""
    max_calls: NonNegativeInt | None = None
    """Stop before the next model call once this many calls were made."""


@dataclass
class Totals:
    """What a run has spent so far on model calls (summed from its ``model.call`` events)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    unpriced_calls: int = 0
    """Calls of a model the price table does not know (their cost is not in ``cost_usd``)."""

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, event: dict[str, Any]) -> None:
        """Count one ``model.call`` event."""
        self.calls += 1
        self.prompt_tokens += int(event.get("prompt_tokens", 0))
        self.completion_tokens += int(event.get("completion_tokens", 0))
        self.cost_usd += float(event.get("cost_usd", 0.0))
        self.unpriced_calls += not event.get("cost_known", True)

    def since(self, earlier: "Totals") -> "Totals":
        """What was spent after ``earlier`` (a copy taken before)."""
        return Totals(**{name: getattr(self, name) - getattr(earlier, name) for name in self.__dataclass_fields__})

    def as_dict(self) -> dict[str, Any]:
        return {"calls": self.calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "cost_usd": round(self.cost_usd, 8)}

    def check(self, budget: Budget) -> None:
        """Raise :class:`BudgetExceeded` when any limit of ``budget`` is reached."""
        if budget.max_calls is not None and self.calls >= budget.max_calls:
            raise BudgetExceeded(f"call budget spent ({self.calls} of {budget.max_calls} calls)", "--max-calls")
        if budget.max_tokens is not None and self.tokens >= budget.max_tokens:
            raise BudgetExceeded(f"token budget spent ({self.tokens} of {budget.max_tokens} tokens)", "--max-tokens")
        if budget.max_cost_usd is not None and self.cost_usd >= budget.max_cost_usd:
            raise BudgetExceeded(f"money budget spent (${self.cost_usd:.4f} of ${budget.max_cost_usd:.4f})")
