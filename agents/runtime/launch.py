"""Start, execute and resume runs: the model is resolved, wrapped (cache, record, accounting) and handed to the agent."""

from __future__ import annotations

import sys
from typing import Any, Callable

from pydantic import BaseModel, NonNegativeFloat, NonNegativeInt, field_validator

from benchmarks.report import Report
from sandboxes.errors import UserError
from sandboxes.settings import Config

from agents.runtime.budget import Budget, BudgetExceeded
from agents.runtime.interrupts import NO_ANSWER, RunPaused
from agents.runtime.models.accounting import AccountedModel
from agents.runtime.models.base import ChatModel
from agents.runtime.models.resolve import OFFLINE_SPECS, resolve_model
from agents.runtime.registry import get_agent
from agents.runtime.run import CHECKPOINTS_FILE, Run


class RunOptions(Config):
    """Options every `agent run` shares ([run] in agentkiln.toml, ``AGENT_<FIELD>`` in the environment)."""

    model: str | None = None
    """Model spec: provider/name (litellm), replay:FILE, scripted:FILE or offline. None = resolve it."""
    api_base: str | None = None
    """Base URL of an OpenAI-compatible or provider endpoint."""
    record: str | None = None
    """Append every model request and reply to this JSONL file (replay it with --model replay:FILE)."""
    cache: bool = False
    """Answer repeated requests from the on-disk response cache ($AGENT_CACHE_DIR)."""
    max_cost_usd: NonNegativeFloat | None = None
    """Stop the run cleanly once this many US dollars are spent on model calls."""
    max_tokens: NonNegativeInt | None = None
    """Stop the run cleanly once this many tokens are used."""
    max_calls: NonNegativeInt | None = None
    """Stop the run cleanly once this many model calls were made."""
    otel: str | None = None
    """OTLP/HTTP receiver to export the run's trace to (http://host:4318); None = the standard
    OTEL_EXPORTER_OTLP_* variables, if set."""

    @field_validator("otel")
    @classmethod
    def _an_otlp_url(cls, value: str | None) -> str | None:
        if value is not None:
            from agents.runtime.otel import traces_url

            try:
                traces_url(value)
            except UserError as error:
                raise ValueError(str(error)) from None
        return value

    def budget(self) -> Budget:
        return Budget(max_cost_usd=self.max_cost_usd, max_tokens=self.max_tokens, max_calls=self.max_calls)


def wrap_model(model: ChatModel | None, run: Run, options: RunOptions) -> ChatModel | None:
    """Cache, then record, then account (outermost) around ``model``; None stays None (offline policy)."""
    if model is None:
        return None
    if options.cache:
        from agents.runtime.models.cache import CachedModel

        model = CachedModel(model)
    if options.record:
        from agents.runtime.models.replay import RecordingModel

        model = RecordingModel(model, options.record)
    return AccountedModel(model, run, options.budget())


def launch(agent: str, config: BaseModel | dict[str, Any], options: RunOptions,
           check: Callable[[Any, ChatModel | None], None] | None = None) -> tuple[Run, Report]:
    """Resolve the model, create a run of the registered ``agent`` and execute it.

    ``check(config, model)`` may raise a UserError for input that would fail the run at once: it runs
    before the run directory is created, so bad input leaves nothing behind.
    """
    get_agent(agent)
    model = resolve_model(options.model, api_base=options.api_base)
    if check is not None:
        check(config, model)
    run = Run.create(agent, config, runtime=options)
    run.update_meta(model=model.name if model else "offline")
    print(f"run {run.id} ({run.dir}); if it stops early: agent runs resume {run.id}", file=sys.stderr)
    return run, execute_run(run, wrap_model(model, run, options))


BUDGET_FIELDS = ("max_cost_usd", "max_tokens", "max_calls")


def change_spending_limits(run: Run, limits: dict[str, Any], by: str) -> None:
    """Save new spending limits (``BUDGET_FIELDS``) in the run's config.json for every later resume."""
    run.update_meta(runtime={**run.runtime, **limits})
    run.emit("budget.changed", by=by, **limits)


def resume(run: Run, overrides: dict[str, Any] | None = None, *, answer: Any = NO_ANSWER) -> Report:
    """Continue ``run`` with the model it started with (``overrides`` may raise the budget, change the model).

    A changed budget is saved in the run's ``config.json`` (it holds for later resumes too). ``answer``
    answers the interrupt a paused run waits on.
    """
    if (run.dir / CHECKPOINTS_FILE).exists():
        run.checkpointer()  # a damaged file is one clear line, before anything changes
    given = {key: value for key, value in (overrides or {}).items() if value is not None}
    budget = {key: given[key] for key in BUDGET_FIELDS if key in given}
    if budget:
        change_spending_limits(run, budget, by="resume")
    options = RunOptions(**{**run.runtime, **given})
    run.answer = answer
    spec = given.get("model") or run.meta.get("model") or options.model
    model = None if spec in OFFLINE_SPECS else resolve_model(spec, api_base=options.api_base)
    run.emit("run.resume", model=model.name if model else "offline")
    return execute_run(run, wrap_model(model, run, options))


def execute_run(run: Run, model: ChatModel | None) -> Report:
    """Call the agent's ``execute`` inside the run; a spent budget ends it cleanly with a partial report.

    The run's checkpoint database is closed afterwards, whatever happened."""
    execute = get_agent(run.agent)
    try:
        with run.active():
            report = execute(run, model)
    except BudgetExceeded as error:
        report = budget_report(run, str(error), error.option)
    except RunPaused as paused:
        report = paused_report(run, paused)
    finally:
        run.close()
    run.write_report(report)
    return report


def budget_report(run: Run, reason: str, option: str = "--max-cost-usd") -> Report:
    """The report of a run stopped by its budget: what was spent and how to continue (``option`` raises the limit
    that ran out)."""
    summary = {"status": "stopped", "reason": reason, **run.totals.as_dict(),
               "resume": f"agent runs resume {run.id} {option} <more>"}
    return Report(summary=summary, rows=[], title=f"{run.agent} run {run.id} (stopped by its budget)")


def paused_report(run: Run, paused: RunPaused) -> Report:
    """The report of a run paused at an interrupt: what it asks and how to answer."""
    summary = {"status": "paused", "question": str(paused), "interrupts": paused.interrupts, **run.totals.as_dict(),
               "resume": f"agent runs resume {run.id} --answer JSON (or: agent chat --attach {run.id})"}
    return Report(summary=summary, rows=[], title=f"{run.agent} run {run.id} (paused, waiting for an answer)")
