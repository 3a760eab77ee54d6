"""`agent bench evokernel`: every method on the same tasks and budget, one comparison table.

The bench is itself a run: each method runs as a child run recorded in the bench's config, so
`agent runs resume` continues the bench by resuming (or reusing) its children. Methods with memory
start from the same memory: a copy of ``--memory`` (or an empty one) per method. A child that pauses
(``pause_every``) pauses the bench; the answer given to the bench goes to that child.
"""

from __future__ import annotations

import shutil
from typing import Any

from agents.runtime.interrupts import NO_ANSWER, RunPaused
from agents.runtime.launch import RunOptions, execute_run, wrap_model
from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run
from benchmarks.report import Report

from agents.evokernel.agent import AGENT_NAME
from agents.evokernel.config import METHODS, EvoKernelConfig

BENCH_NAME = "evokernel-bench"
COLUMNS = ("policy", "correctness", "compile_rate", "median_speedup_over_first_draft", "speedup_over_first_draft_iqr",
           "median_roofline_fraction", "attempts", "tokens", "cost_usd")


def parse_methods(text: str) -> list[str]:
    """``all`` or a comma list of methods."""
    from sandboxes.errors import UserError

    methods = list(METHODS) if text == "all" else [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise UserError(f"unknown method(s) {', '.join(unknown)}: choose from {', '.join(METHODS)} or all")
    return methods


def execute_bench(run: Run, model: ChatModel | None) -> Report:
    """Run (or resume) each method's child run and tabulate their summaries."""
    base = EvoKernelConfig.model_validate(run.config["base"])
    rows = []
    for method in run.config["methods"]:
        child = _child_run(run, base, method)
        report = child.read_report() if child.status == "finished" else None
        if report is None:
            inner = getattr(model, "model", model)  # re-account the calls to the child run
            child.answer, run.answer = run.answer, NO_ANSWER
            report = execute_run(child, wrap_model(inner, child, RunOptions(**run.runtime)))
        if report.summary.get("status") == "paused":
            raise RunPaused(run.id, report.summary["interrupts"])
        rows.append({"method": method, "run": child.id, **{k: report.summary.get(k) for k in COLUMNS},
                     "fast_1": (report.summary.get("fast_p") or {}).get("fast_1")})
    best = max(rows, key=lambda r: r["correctness"] or 0.0, default=None)
    summary = {"tasks": base.tasks, "target": base.target, "budget_per_task": base.budget,
               "methods": ", ".join(run.config["methods"]), "most_correct": best["method"] if best else None}
    return Report(summary=summary, rows=rows, title=f"EvoKernel methods on {base.target}: {base.tasks}")


def _child_run(run: Run, base: EvoKernelConfig, method: str) -> Run:
    children: dict[str, str] = dict(run.meta.get("children", {}))
    if method in children:
        return Run.open(children[method], run.dir.parent)
    memory = None
    if method in ("evokernel", "evokernel-noq"):
        memory = run.dir / f"memory-{method}.sqlite"
        if base.memory and not memory.exists():
            shutil.copyfile(base.memory, memory)
    config = base.model_copy(update={"method": method, "memory": str(memory) if memory else None})
    child = Run.create(AGENT_NAME, config, run.dir.parent, runtime=run.runtime)
    child.update_meta(model=run.meta.get("model"), bench=run.id)
    run.update_meta(children={**children, method: child.id})
    return child


def bench_config(base: EvoKernelConfig, methods: list[str]) -> dict[str, Any]:
    return {"base": base.model_dump(mode="json"), "methods": methods}
