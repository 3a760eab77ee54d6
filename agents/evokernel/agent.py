"""Execute (or resume) one EvoKernel run: set up harness, memory and policy, run the graph, report."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from agents.runtime.graph import run_graph
from agents.runtime.models.base import ChatModel
from agents.runtime.progress import Progress
from agents.runtime.run import Run
from benchmarks.executor import make_executor
from benchmarks.kernels.tasks import KernelTask, SkippedTask, task_notes
from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.context import Deps
from agents.evokernel.env import KernelEnv, make_target
from agents.evokernel.graph import EvoKernelAgent, assign_waves
from agents.evokernel.memories import RunMemory, default_memory_path
from agents.evokernel.offline import POLICY_NAME, OfflinePolicy
from agents.evokernel.report import build_report
from agents.evokernel.state import new_task_state
from agents.evokernel.templates import template_library
from agents.evokernel.workers import on_interrupt
from sandboxes.threadsafe import serialise_ast_parse

AGENT_NAME = "evokernel"
__all__ = ["AGENT_NAME", "default_memory_path", "execute", "initial_state", "verdict_cache_path"]


def verdict_cache_path(run: Run) -> Path:
    """The verdict cache shared by the runs beside ``run`` (one runs root)."""
    return run.dir.parent / "cache" / "evokernel-verdicts.sqlite"


def initial_state(kernels: list[KernelTask], config: EvoKernelConfig) -> dict[str, Any]:
    """Every task before its first attempt, each in its wave."""
    waves = assign_waves([k.qualified_name for k in kernels], config.waves, config.seed)
    return {"tasks": {k.qualified_name: new_task_state(k, config.method, waves[k.qualified_name]) for k in kernels},
            "round": 0}


def execute(run: Run, model: ChatModel | None) -> Report:
    """Run (or resume) the EvoKernel graph for ``run`` and return its report."""
    config = EvoKernelConfig.model_validate(run.config)
    serialise_ast_parse()
    templates = template_library(config.target)
    if model is None and templates is None:
        raise UserError(f"the offline policy needs template kernels and target '{config.target}' has none: "
                        "pass --model (or use --target npu)")
    target = make_target(config.target)
    executor = make_executor(config.executor, os.environ.get("AGENT_SANDBOX"))  # nodes use the run's backend
    env = KernelEnv(target, config.evaluation, verdicts=verdict_cache_path(run) if config.verdict_cache else None,
                    executor=executor)
    skipped: list[SkippedTask] = []
    kernels = env.tasks(config.tasks, config.shapes, skipped)
    for left_out in skipped:
        print(left_out.warning, file=sys.stderr)
    memories = RunMemory(config, run, templates)
    deps = Deps(config, memories.memory, OfflinePolicy(templates) if model is None else None)
    policy = POLICY_NAME if model is None else f"model: {model.name}"
    agent = None
    try:
        with Progress(f"evokernel {config.method} on {config.target}", total=config.budget * len(kernels),
                      unit="attempts", estimated=True) as progress:
            agent = EvoKernelAgent(run, config, kernels, env, deps, model, progress, memories)
            with on_interrupt(agent.interrupt):
                final = run_graph(agent.builder(), run, initial_state(kernels, config),
                                  max_concurrency=len(kernels) + 8)
    finally:
        if agent is not None:
            agent.close()
        memories.close()
        env.close()
        executor.close()
    config = agent.config  # an answer to a pause may have changed the budget
    report = build_report(final["tasks"], budget=config.budget, policy=policy, method=config.method,
                          target=config.target, totals=run.totals.as_dict(), artifacts=run.artifacts,
                          title=f"EvoKernel ({config.method}) on {config.target}: {config.tasks}")
    report.summary.update(task_notes(kernels, skipped))
    return report
