"""Typed tools over ``benchmarks.kernels.verifier.harness.evaluate``: compile + check, benchmark, NPU profile.

Every evaluation runs inside the sandbox (the harness's trusted runner), so these tools declare the
``sandbox`` capability. A task is a built-in ``LEVEL/NAME`` or a file that the session's :class:`HostPaths`
lets tools read. NPU numbers come from the simulator and are marked ``simulated``.
"""

from __future__ import annotations

import importlib
from typing import Any, Literal

from pydantic import BaseModel, Field

from sandboxes.errors import UserError
from tools.base import Tool
from tools.hostpaths import HostPaths

TargetName = Literal["cpu", "gpu", "npu"]
TARGET_CLASSES = {"cpu": ("sandboxes.targets.cpu", "CpuTarget"), "gpu": ("sandboxes.targets.gpu", "GpuTarget"),
                  "npu": ("sandboxes.targets.npu.target", "NpuTarget")}
TASK_HELP = ("Built-in task as LEVEL/NAME (e.g. L1/relu) or a path to a KernelBench file in the session's work "
             "directory.")
PROFILE_KEYS = ("simulated", "cycles", "bottleneck", "pipe_busy", "roofline_fraction", "gm_bytes", "launches", "chip",
                "profile")


class ListTasksArgs(BaseModel):
    """Arguments of `kernel_list_tasks`."""

    level: Literal["L1", "L2"] = Field("L1", description="Built-in suite level.")


class ShowTaskArgs(BaseModel):
    """Arguments of `kernel_show_task`."""

    task: str = Field(description=TASK_HELP)


class EvaluateArgs(BaseModel):
    """Arguments of `kernel_check` and `kernel_benchmark`."""

    task: str = Field(description=TASK_HELP)
    source: str = Field(description="The solution: Python defining ModelNew (KernelBench format).")
    target: TargetName = Field("cpu", description="Where to run: cpu, gpu, or npu (the simulated Ascend chip).")


class ProfileArgs(BaseModel):
    """Arguments of `npu_profile`."""

    task: str = Field(description=TASK_HELP)
    source: str = Field(description="The solution in the NPU kernel language (KernelBench format).")


def load_task(name: str, paths: HostPaths) -> Any:
    """A KernelTask from ``LEVEL/NAME`` or from a file ``paths`` lets tools read."""
    from benchmarks.kernels.tasks import BUILTIN_LEVELS, BUILTIN_ROOT, builtin_task_names
    from benchmarks.kernels.tasks import load_task as load_task_file

    level, slash, rest = name.partition("/")
    if slash and level in BUILTIN_LEVELS and "/" not in rest:
        if rest not in builtin_task_names(level):
            raise UserError(f"no built-in task {name!r} (kernel_list_tasks lists them)")
        return load_task_file(BUILTIN_ROOT / level / f"{rest}.py", level)
    return load_task_file(paths.readable(name))


def make_target(name: str) -> Any:
    module, attribute = TARGET_CLASSES[name]
    try:
        return getattr(importlib.import_module(module), attribute)()
    except (ImportError, AttributeError) as error:
        raise UserError(f"target {name!r} is not available in this installation: {error}") from error


def evaluate(task: str, source: str, target: str, paths: HostPaths, *, quick: bool) -> dict[str, Any]:
    """Run the harness; ``quick`` checks compile and correctness with minimal timing."""
    from benchmarks.kernels.verifier.harness import EvalConfig
    from benchmarks.kernels.verifier.harness import evaluate as harness_evaluate

    config = EvalConfig(trials=3, warmup=0, min_timed_trials=1, timed_trials=1) if quick else EvalConfig()
    result = harness_evaluate(load_task(task, paths), source, make_target(target), config=config)
    row = result.to_row()
    if quick:
        for key in ("speedup", "runtime_ms", "reference_ms"):
            row.pop(key, None)
    return row


def list_tasks(args: ListTasksArgs) -> list[dict[str, str]]:
    from benchmarks.kernels.tasks import load_tasks

    return [{"task": t.qualified_name, "description": t.description} for t in load_tasks(f"builtin:{args.level}")]


def make_kernel_tools(paths: HostPaths | None = None) -> list[Tool]:
    """The kernel tools; the ones that run a solution do so in the sandbox. Task files are read through ``paths``
    (default: the built-in suites only)."""
    paths = paths or HostPaths()

    def show_task(args: ShowTaskArgs) -> str:
        return load_task(args.task, paths).source

    def npu_profile(args: ProfileArgs) -> dict[str, Any]:
        row = evaluate(args.task, args.source, "npu", paths, quick=False)
        profile = {key: value for key, value in row.items() if key in PROFILE_KEYS}
        return {"status": row["status"], "reason": row.get("reason", ""), "speedup": row.get("speedup"), **profile}

    runs = ("read_files", "sandbox")
    return [
        Tool("kernel_list_tasks", "List the built-in kernel tasks of a level with one-line descriptions.",
             ListTasksArgs, list_tasks, group="kernels", capabilities=("compute",)),
        Tool("kernel_show_task", "Show a kernel task's PyTorch reference program (what a solution must match).",
             ShowTaskArgs, show_task, group="kernels", capabilities=("read_files",)),
        Tool("kernel_check", "Compile a kernel solution and check it against the reference (static checks, "
             "build, correctness trials) on cpu, gpu or npu.", EvaluateArgs,
             lambda a: evaluate(a.task, a.source, a.target, paths, quick=True), group="kernels", capabilities=runs),
        Tool("kernel_benchmark", "Check and time a kernel solution against the reference on cpu, gpu or npu "
             "(speedup, runtimes; npu times are simulated).", EvaluateArgs,
             lambda a: evaluate(a.task, a.source, a.target, paths, quick=False), group="kernels", capabilities=runs),
        Tool("npu_profile", "Run a solution on the simulated NPU and report its profile: cycles, pipe "
             "utilisation, bottleneck and roofline fraction (all simulated).", ProfileArgs, npu_profile,
             group="kernels", capabilities=runs),
    ]
