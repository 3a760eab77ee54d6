"""The npu reference solutions: every built-in task whose reference is one template operator (a
fusion of several, see ``templates.fusion``, or a whole-graph pattern, see ``templates.select``) gets
the rendered template as its solution.

They are rendered on demand into the kernel cache, keyed by the templates and tasks they come from,
so they never drift from the operator library. ``python -m benchmarks.kernels.npu_references --out DIR``
exports them as files."""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
from pathlib import Path

from benchmarks.kernels.kernelbench import host_instance
from benchmarks.kernels.meta import MetaError
import sandboxes.targets.npu.templates as templates_package
from sandboxes.targets.cache import default_cache_root
from sandboxes.targets.npu.templates import render_solution
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.npu.templates.select import single_operator

BUILTIN_SELECTOR = "builtin:L1+builtin:L2"


def task_operator(task_source: str) -> OpSpec | str:
    """The single template operator (or fusion of operators) of a task, or why there is none.

    The task runs on the meta device: shapes only, so a task with GiBs of inputs costs the host nothing
    (see ``kernelbench.host_instance`` for the small tasks that need real data to be built)."""
    try:
        model, inputs = host_instance(task_source)
    except MetaError as error:
        return str(error)
    return single_operator(model, inputs)


def solution_for(task_source: str, params: dict | None = None) -> str | None:
    """The rendered template solution for a task, or None when no template covers it."""
    spec = task_operator(task_source)
    return None if isinstance(spec, str) else render_solution(task_source, spec, params)


def write_references(folder: Path, selector: str = BUILTIN_SELECTOR) -> list[Path]:
    """Render the solution of every task in ``selector`` that a template covers into ``folder``."""
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


def reference_dir() -> Path:
    """The rendered built-in reference set, cached under the kernel cache by a digest of its inputs."""
    from benchmarks.kernels.tasks import BUILTIN_ROOT

    digest = hashlib.sha256()
    for root in (Path(templates_package.__file__).parent, BUILTIN_ROOT):
        for path in sorted(root.rglob("*.py")):
            digest.update(path.name.encode() + path.read_bytes())
    folder = default_cache_root() / "npu-reference" / digest.hexdigest()[:16]
    if not (folder / ".complete").exists():
        staging = folder.with_name(folder.name + f".tmp{os.getpid()}")
        write_references(staging)
        (staging / ".complete").touch()
        if folder.exists():  # another process rendered it meanwhile
            shutil.rmtree(staging)
        else:
            staging.replace(folder)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", default=BUILTIN_SELECTOR)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    for path in write_references(args.out, args.tasks):
        print(path)


if __name__ == "__main__":
    main()
