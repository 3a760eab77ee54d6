"""`agent run evokernel`: EvoKernel on a task suite (the options here are shared with `agent bench evokernel`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from sandboxes.errors import UserError

from agents.cli.common import with_run_options
from agents.cli.executor_options import ExecutorOption
from agents.cli.groups import run_app
from agents.cli.kernel_options import (MaxInputOption, MemoryMbOption, ShapeScaleOption, TimeoutOption,
                                       kernel_flags)
from agents.cli.output import Output
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent

if TYPE_CHECKING:
    from agents.evokernel.config import EvoKernelConfig

AGENT_NAME = "evokernel"
register_agent(AGENT_NAME, "agents.evokernel.agent:execute")

TargetOption = Annotated[Optional[str], typer.Option("--target", help="npu (simulated), gpu or cpu.")]
TasksOption = Annotated[Optional[str], typer.Option("--tasks", help="builtin:L1, builtin:L1:relu,softmax, a folder.")]
BudgetOption = Annotated[Optional[int], typer.Option("--budget", help="Attempts per task (draft + refine).")]
MemoryOption = Annotated[Optional[str], typer.Option("--memory", help="SQLite file of the experience memory.")]
WorkersOption = Annotated[Optional[int], typer.Option("--workers", help="Tasks attempted in parallel.")]


def _config(target, tasks, budget, memory, workers, **extra) -> EvoKernelConfig:
    """The EvoKernel settings from the flags, then ``AGENT_EVOKERNEL_*``, then ``[evokernel]``."""
    from agents.evokernel.config import EvoKernelConfig

    flags = {"target": target, "tasks": tasks, "budget": budget, "memory": memory, "workers": workers, **extra}
    config = load_config(EvoKernelConfig, "evokernel", flags)
    if config.memory is None and config.method in ("evokernel", "evokernel-noq"):
        from agents.evokernel.agent import default_memory_path

        config = config.model_copy(update={"memory": default_memory_path(config.target)})
    return config


def check_inputs(config: EvoKernelConfig, model: object) -> None:
    """What would end the run at once, checked before its directory exists: the target, the tasks,
    template kernels for the offline policy and a memory file that is not one."""
    from agents.evokernel.env import TARGETS
    from agents.evokernel.templates import template_library
    from benchmarks.kernels.tasks import load_tasks
    from benchmarks.executor import check_spec
    from memory.qmemory.store import MemoryStore
    from sandboxes.select import get_sandbox

    if config.target not in TARGETS:
        raise UserError(f"unknown target '{config.target}': choose from {', '.join(TARGETS)}")
    if model is None and template_library(config.target) is None:
        raise UserError(f"the offline policy needs template kernels and target '{config.target}' has none: "
                        "pass --model (or use --target npu)")
    load_tasks(config.tasks, config.shapes)
    if config.memory and Path(config.memory).exists():
        MemoryStore(config.memory).close()
    if check_spec(config.executor) == "local":  # on a cluster, each node proves its own sandbox
        get_sandbox()  # proves that the sandbox runs a trivial job, before the first attempt (else one line and the fix)


@run_app.command("evokernel")
@with_run_options
def run_evokernel(target: TargetOption = None, tasks: TasksOption = None,
                  method: Annotated[Optional[str], typer.Option(
                      "--method", help="evokernel, evokernel-noq, refine or pass@k.")] = None,
                  budget: BudgetOption = None, memory: MemoryOption = None, workers: WorkersOption = None,
                  pause_every: Annotated[Optional[int], typer.Option(
                      "--pause-every", help="Pause after every N rounds for a new budget or guidance "
                                            "(agent chat --attach RUN_ID).")] = None,
                  shape_scale: ShapeScaleOption = None, max_input_mb: MaxInputOption = None,
                  memory_mb: MemoryMbOption = None, timeout: TimeoutOption = None,
                  executor: ExecutorOption = None, *, options: RunOptions, output: Output) -> None:
    """Draft and refine kernels with a Q-value experience memory (offline policy without a model)."""
    config = _config(target, tasks, budget, memory, workers, method=method, pause_every=pause_every,
                     executor=executor, **kernel_flags(shape_scale, max_input_mb, memory_mb, timeout))
    run, report = launch(AGENT_NAME, config, options, check_inputs)
    output.report(report, run)
