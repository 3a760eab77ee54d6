"""Write the npu reference solutions: every built-in task whose reference is one template operator
gets the rendered template as its solution (``python -m sandboxes.targets.npu.references``)."""

from __future__ import annotations

import argparse
import types
from pathlib import Path

import torch

from sandboxes.targets.npu.templates import render_solution
from sandboxes.targets.npu.templates.fusion import fuse_elementwise
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.npu.templates.recognize import recognise

REFERENCE_DIR = Path(__file__).resolve().parents[3] / "benchmarks" / "kernels" / "solutions" / "reference" / "npu"


def task_operator(task_source: str) -> OpSpec | str:
    """The single template operator (or fused element-wise chain) of a task, or why there is none."""
    module = types.ModuleType("npu_task")
    exec(compile(task_source, "task.py", "exec"), module.__dict__)
    torch.manual_seed(0)
    graph = recognise(module.Model(*module.get_init_inputs()), module.get_inputs())
    if graph.unsupported:
        return graph.unsupported
    if len(graph.ops) == 1:
        return graph.ops[0][1]
    fused = fuse_elementwise(graph)
    return fused or f"{len(graph.ops)} operators that no single template (or element-wise fusion) covers"


def solution_for(task_source: str, params: dict | None = None) -> str | None:
    """The rendered template solution for a task, or None when no template covers it."""
    spec = task_operator(task_source)
    return None if isinstance(spec, str) else render_solution(task_source, spec, params)


def write_references(selector: str = "builtin:L1+builtin:L2", folder: Path = REFERENCE_DIR) -> list[Path]:
    from benchmarks.kernels.tasks import load_tasks

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for task in load_tasks(selector):
        source = solution_for(task.source)
        if source is not None:
            path = folder / f"{task.level}__{task.name}.py"
            path.write_text(source)
            written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", default="builtin:L1+builtin:L2")
    parser.add_argument("--out", type=Path, default=REFERENCE_DIR)
    args = parser.parse_args()
    for path in write_references(args.tasks, args.out):
        print(path)


if __name__ == "__main__":
    main()
