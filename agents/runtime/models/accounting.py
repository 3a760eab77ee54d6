"""Per-call and per-run accounting of tokens, cost and latency, with a budget that stops the run."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from agents.runtime.budget import Budget, BudgetExceeded
from agents.runtime.models.base import ChatModel, ChatResponse

if TYPE_CHECKING:
    from agents.runtime.run import Run


class AccountedModel:
    """Wraps any ChatModel: each call becomes a ``model.call`` event; a spent budget raises ``BudgetExceeded``.

    The run's totals include calls made before a resume, so a budget holds across resumes.
    """

    def __init__(self, model: ChatModel, run: "Run", budget: Budget | None = None):
        self.model = model
        self.run = run
        self.budget = budget or Budget()
        self.name = model.name

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 **options: Any) -> ChatResponse:
        self._check_budget()
        started = time.perf_counter()
        try:
            response = self.model.complete(messages, tools=tools, **options)
        except Exception as error:
            self.run.emit("model.error", model=self.name, error=f"{type(error).__name__}: {error}",
                          latency_s=round(time.perf_counter() - started, 6))
            raise
        self.run.emit("model.call", model=response.model or self.name,
                      prompt_tokens=response.usage.prompt_tokens,
                      completion_tokens=response.usage.completion_tokens,
                      cost_usd=response.cost_usd, cost_known=response.cost_known, cached=response.cached,
                      latency_s=round(time.perf_counter() - started, 6),
                      messages=len(messages), tool_calls=[call.name for call in response.tool_calls],
                      reply_chars=len(response.content))
        return response

    def _check_budget(self) -> None:
        try:
            self.run.totals.check(self.budget)
        except BudgetExceeded as error:
            self.run.emit("budget.exceeded", reason=str(error), **self.run.totals.as_dict())
            raise
