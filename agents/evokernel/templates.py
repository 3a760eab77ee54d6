"""Template kernels of a target, seen through the offline policy's ``TemplateLibrary`` protocol.

On npu these are the simulator's parameterised operator templates: a task whose reference is one
templated operator (or a fusable chain) gets that template; the memory is seeded with every
template's source as API knowledge. Other targets have no template library (the offline policy then cannot draft).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from benchmarks.kernels.tasks import KernelTask


@dataclass
class NpuTemplate:
    """One operator bound to its template family (``render`` gives a full solution file)."""

    name: str
    space: dict[str, list[Any]]
    defaults: dict[str, Any]
    spec: Any

    def render(self, task: KernelTask, params: dict[str, Any]) -> str:
        from sandboxes.targets.npu.templates import render_solution

        return render_solution(task.source, self.spec, params)


class NpuTemplates:
    """The NPU operator library: which template computes a task, and the API texts for memory."""

    def __init__(self) -> None:
        self._found: dict[str, NpuTemplate | None] = {}
        self._lock = threading.Lock()

    def template_for(self, task: KernelTask) -> NpuTemplate | None:
        with self._lock:
            if task.qualified_name not in self._found:
                self._found[task.qualified_name] = _recognise(task)
            return self._found[task.qualified_name]

    def api_entries(self) -> list[tuple[str, str]]:
        from sandboxes.targets.npu.templates import list_templates

        return [(t["family"], f"[API template: {t['family']}] {t['description']}; parameters "
                 + ", ".join(f"{k} in {v}" for k, v in t["space"].items()) + f"\n```python\n{t['source']}\n```")
                for t in list_templates()]


def _recognise(task: KernelTask) -> NpuTemplate | None:
    """The task's single templated operator or fused chain (as the npu reference solutions use), else None."""
    from benchmarks.kernels.npu_references import task_operator
    from sandboxes.targets.npu.templates import get_template

    spec = task_operator(task.source)  # built-in/user task: trusted reference
    if isinstance(spec, str):
        return None
    template = get_template(spec.family)
    space = template.space_for(spec)
    return NpuTemplate(template.family, space, {k: v for k, v in template.defaults.items() if k in space}, spec)


def template_library(target: str) -> NpuTemplates | None:
    """The template library of ``target`` (only npu has one)."""
    return NpuTemplates() if target == "npu" else None
