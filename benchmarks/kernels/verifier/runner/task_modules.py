"""Loaded task modules, kept by the trusted runner between the requests of a persistent server.

A task file is trusted code (the benchmark's, never a candidate's): executing it again for every candidate
of the same task only repeats its module-level work and drops what its functions cache (``macko_spmv``
builds its compressed matrix once per module: 3 CPU s). The runner therefore keeps the modules it loaded,
keyed by the SHA-256 of the task source and the shape mode (GPU shapes are set on the module), and the
newest :data:`KEEP` of them only.

Nothing untrusted reaches a kept module: workers are forked by the fork server, started before the first
request, so they never map this process's memory, and the runner's inputs reach them only as copies in
their shared regions (:mod:`.inputs`). Every request still draws its own secret seeds and builds its own
reference ``Model`` from them; only the module object (its constants, functions and their caches) is
shared. A task whose ``get_inputs`` keeps state between calls other than a cache of fixed values would see
that state carry over from one candidate to the next: the builtin tasks keep none.
"""

from __future__ import annotations

import hashlib
import sys
import types
from collections import OrderedDict

from benchmarks.kernels.verifier.runner.worker import load_module

KEEP = 8
"""Task modules a server keeps (the least recently used goes first)."""


class TaskModules:
    """The task modules this process loaded, newest last."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._modules: OrderedDict[tuple[str, str], types.ModuleType] = OrderedDict()
        self.loads = 0
        """Modules executed so far (a kept one served again does not count)."""

    def get(self, source: str, shapes: str | None) -> types.ModuleType:
        """The module of ``source`` (as ``task``, file ``task.py``) with the GPU shapes set when ``shapes`` is
        'gpu'; loaded once per (source, shape mode) while kept."""
        key = (hashlib.sha256(source.encode()).hexdigest(), "gpu" if shapes == "gpu" else "default")
        module = self._modules.get(key)
        if module is None:
            module = self._load(source, key[1] == "gpu")
            self._modules[key] = module
            while len(self._modules) > self.keep:
                self._modules.popitem(last=False)
        self._modules.move_to_end(key)
        sys.modules["task"] = module  # as a fresh load registers it (pickling the init inputs may need it)
        return module

    def _load(self, source: str, gpu_shapes: bool) -> types.ModuleType:
        module = load_module("task.py", "task", source)
        self.loads += 1
        if gpu_shapes:
            for name, value in dict(getattr(module, "GPU_SHAPES", {})).items():
                setattr(module, name, value)
        return module


TASK_MODULES = TaskModules()
"""The runner's modules: one per process, so a persistent server keeps them across requests."""
