"""What every `agent run`/`agent bench` command shares: the run options and benchmarks inside a run directory."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional

import typer
from pydantic import BaseModel

from benchmarks.report import Report

from agents.cli.output import add_options, with_output
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions

if TYPE_CHECKING:
    from agents.runtime.run import Run

ModelOption = Annotated[Optional[str], typer.Option(
    "--model", help="Model: provider/name (openai/gpt-4o-mini, anthropic/..., ollama/...), replay:FILE, "
                    "scripted:FILE or offline. Default: $AGENT_MODEL, then run.model in agentkiln.toml, then a provider "
                    "key, else the agent's offline policy.")]
ApiBaseOption = Annotated[Optional[str], typer.Option(
    "--api-base", help="Base URL of an OpenAI-compatible or provider endpoint.")]
RecordOption = Annotated[Optional[str], typer.Option(
    "--record", help="Append every model request and reply to this JSONL file.")]
CacheOption = Annotated[Optional[bool], typer.Option(
    "--cache/--no-cache", help="Answer repeated requests from the on-disk response cache.")]
MaxCostOption = Annotated[Optional[float], typer.Option(
    "--max-cost-usd", min=0, help="Stop cleanly once this many US dollars are spent (exit code 3).")]
MaxTokensOption = Annotated[Optional[int], typer.Option(
    "--max-tokens", min=0, help="Stop cleanly once this many tokens are used (exit code 3).")]
MaxCallsOption = Annotated[Optional[int], typer.Option(
    "--max-calls", min=0, help="Stop cleanly once this many model calls were made (exit code 3).")]

OtelOption = Annotated[Optional[str], typer.Option(
    "--otel", help="Export the run as an OpenTelemetry trace to this OTLP/HTTP receiver (http://host:4318). "
                   "Default: the standard OTEL_EXPORTER_OTLP_* variables, when set.")]

RUN_FLAGS = {"model": ModelOption, "api_base": ApiBaseOption, "record": RecordOption, "cache": CacheOption,
             "max_cost_usd": MaxCostOption, "max_tokens": MaxTokensOption, "max_calls": MaxCallsOption,
             "otel": OtelOption}


def with_run_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the shared run flags and ``--json``/``--json-out``; it receives ``options: RunOptions``
    and ``output``.

    ``options`` is filled from the flags, then ``AGENT_*`` variables, then ``[run]`` in agentkiln.toml.
    """
    def build(flags: dict[str, Any]) -> dict[str, Any]:
        return {"options": load_config(RunOptions, "run", flags, env_prefix="AGENT_")}

    flags = {name: (annotation, None) for name, annotation in RUN_FLAGS.items()}
    return with_output(add_options(command, flags, ("options",), build))


def run_benchmark(name: str, config: BaseModel | dict[str, Any], measure: Callable[["Run"], Report]) -> tuple["Run", Report]:
    """Make ``runs/<id>/`` for a benchmark, run ``measure(run)`` inside it and write its report there."""
    from agents.runtime.run import Run

    run = Run.create(name, config)
    run.update_meta(model="offline")
    with run.active():
        report = measure(run)
        run.write_report(report)
    return run, report


def rows_benchmark(name: str, config: dict[str, Any], rows: Callable[[], list[dict]], summary: dict[str, Any],
                   title: str, output: Any) -> None:
    """A benchmark whose report is ``rows()`` under a fixed ``summary``, in its own run directory, on one
    torch thread (so ratios measured side by side compare like with like)."""
    import torch

    torch.set_num_threads(1)
    run, report = run_benchmark(name, config, lambda run: Report(summary=summary, rows=rows(), title=title))
    output.report(report, run)
