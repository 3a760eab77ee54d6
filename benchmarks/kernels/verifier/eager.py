"""KernelBench's usual baseline as a named solution set, ``builtin:eager``: the reference copied into
``ModelNew`` and run with the framework's own ops.

It is a baseline, never an optimised solution. The verifier's static checks and runtime tripwire
exist to refuse exactly this code, so they are off for it, and every report of it says so; its
speedup is the harness's own noise floor (the same ops timed twice).
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path
from typing import Sequence

from benchmarks.kernels.tasks import KernelTask
from benchmarks.kernels.verifier.runner.launch import EvalConfig
from sandboxes.errors import UserError
from sandboxes.targets.base import Target
from sandboxes.targets.cache import default_cache_root

EAGER = "builtin:eager"
LABEL = ("eager baseline: the reference's torch ops copied into ModelNew, not an optimised solution "
         "(static checks and the runtime tripwire are off for it)")
VARIANT = "eager"


def eager_source(task: KernelTask) -> str:
    """The task's own code with ``ModelNew`` as its reference model."""
    return f'{task.source.rstrip()}\n\n\nclass ModelNew(Model):\n    """{LABEL}."""\n'


def eager_dir(tasks: Sequence[KernelTask], target: Target) -> Path:
    """A folder of eager solutions for ``tasks`` (``<level>__<task>__eager.py``), written once per content."""
    if target.simulated:
        raise UserError(f"{EAGER} times torch against itself; on the simulated {target.name} target the baseline "
                        "is already the target's own eager (see the report's baseline)")
    sources = {f"{t.level}__{t.name}__{VARIANT}.py": eager_source(t) for t in tasks}
    digest = hashlib.sha256("".join(f"{k}\0{v}" for k, v in sorted(sources.items())).encode()).hexdigest()[:16]
    folder = default_cache_root() / "eager" / digest
    if not folder.is_dir():
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{digest}.", dir=folder.parent))
        for name, source in sources.items():
            (staging / name).write_text(source)
        try:
            staging.rename(folder)
        except OSError:  # another process wrote the same set first
            shutil.rmtree(staging, ignore_errors=True)
    return folder


def eager_config(config: EvalConfig) -> EvalConfig:
    """``config`` with the checks that refuse framework ops turned off (only for the baseline)."""
    return config.model_copy(update={"static_checks": False, "tripwire": "off"})
