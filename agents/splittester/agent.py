"""`execute(run, model)` for SplitTester: one graph step per task, checkpointed, so a resumed run skips
finished tasks."""

from __future__ import annotations

import random
from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from agents.runtime.graph import run_graph
from agents.runtime.models.base import ChatModel
from agents.runtime.progress import Progress
from agents.splittester.config import SplitTesterConfig
from agents.splittester.llm import ModelPolicy
from agents.splittester.offline import OfflinePolicy
from agents.splittester.pipeline import SELECTORS, solve_task
from benchmarks.drc.suite import load_suite, select_tasks
from benchmarks.report import Report
from tools.drc.runner import DrcRunner

AGENT = "splittester"


class State(TypedDict, total=False):
    rows: dict[str, dict]


def make_policy(model: ChatModel | None, config: SplitTesterConfig, runner: DrcRunner):
    if model is None:
        return OfflinePolicy(runner, random.Random(config.seed))
    return ModelPolicy(model, runner.sandbox, with_reference=config.reference, test_layouts=config.test_layouts,
                       script_retries=config.script_retries, temperature=config.temperature)


def build_graph(tasks, solve) -> StateGraph:
    """A loop of one ``solve`` node per task until every task has a row."""
    def solve_next(state: State) -> State:
        rows = dict(state.get("rows") or {})
        task = next(task for task in tasks if task.spec.id not in rows)
        rows[task.spec.id] = solve(task)
        return {"rows": rows}

    def route(state: State) -> str:
        return "solve" if len(state.get("rows") or {}) < len(tasks) else END

    builder = StateGraph(State)
    builder.add_node("solve", solve_next)
    builder.add_conditional_edges(START, route)
    builder.add_conditional_edges("solve", route)
    return builder


def execute(run, model: ChatModel | None, runner: DrcRunner | None = None) -> Report:
    """Run (or resume) SplitTester over the configured tasks."""
    config = SplitTesterConfig(**{k: v for k, v in run.config.items() if k != "agent"})
    tasks = select_tasks(load_suite(), config.tasks)
    if runner is None:
        from sandboxes.select import get_sandbox

        runner = DrcRunner(get_sandbox(config.sandbox))
    policy = make_policy(model, config, runner)
    with Progress(f"splittester ({len(tasks)} tasks)", total=len(tasks)) as progress:
        state = run_graph(build_graph(tasks, lambda task: solve_task(task, policy, runner, config, run.artifacts)),
                          run, {"rows": {}}, progress=progress)
    rows = [state["rows"][task.spec.id] for task in tasks]
    return Report(summary=summarize(rows, policy.name, config, run), rows=rows,
                  title=f"SplitTester on {len(rows)} Rule2DRC tasks")


def summarize(rows: list[dict], policy: str, config: SplitTesterConfig, run) -> dict:
    """pass@1, pass@N (oracle), best-of-N success of every selector, compile and error rates, cost."""
    count = max(1, len(rows))

    def mean(key: str):
        values = [row[key] for row in rows if row.get(key) is not None]
        return round(sum(values) / len(values), 4) if values else None

    summary = {"policy": policy, "tasks": len(rows), "n": config.n, "pass@1": mean("pass@1"),
               "oracle_pass@N": round(sum(row["oracle"] for row in rows) / count, 4)}
    summary.update({f"bon_{name}": mean(name) for name in SELECTORS})
    summary.update({"compile_rate": mean("compile_rate"), "error_rate": mean("error_rate"),
                    "cost_usd": round(run.totals.cost_usd, 6), "tokens": run.totals.tokens})
    return summary

