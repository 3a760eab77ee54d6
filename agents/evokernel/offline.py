"""The offline policy: draft from the target's template kernels, refine by mutating their parameters.

It reads the same retrieved context an LLM would: parameters of retrieved feasible traces seed the
draft (cross-task reuse), and the mutations recorded in retrieved best practices (ranked by Q)
are tried first in refinement. So memory and Q-values steer it exactly as they steer a model.
"""

from __future__ import annotations

import json
from typing import Any, Protocol, Sequence

import numpy as np

from benchmarks.kernels.tasks import KernelTask

POLICY_NAME = "offline policy: template mutation"


class KernelTemplate(Protocol):
    """A parameterised kernel of the target language (tile length, buffer count, block_dim, ...)."""

    name: str
    space: dict[str, list[Any]]
    """Allowed values of each parameter, in increasing order."""
    defaults: dict[str, Any]

    def render(self, task: KernelTask, params: dict[str, Any]) -> str:
        """The solution file for ``task`` with these parameters."""
        ...


class TemplateLibrary(Protocol):
    def template_for(self, task: KernelTask) -> KernelTemplate | None: ...

    def api_entries(self) -> list[tuple[str, str]]:
        """(name, text) of every template, seeded into memory as API knowledge."""
        ...


def params_key(template: str, params: dict[str, Any]) -> str:
    return template + ":" + json.dumps(params, sort_keys=True)


def neighbours(template: KernelTemplate, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Mutations that move one parameter one step up or down its allowed values."""
    moves = []
    for name, values in template.space.items():
        index = values.index(params[name]) if params.get(name) in values else None
        for step, direction in ((1, "up"), (-1, "down")):
            if index is not None and 0 <= index + step < len(values):
                moves.append({"param": name, "direction": direction, "to": values[index + step]})
    return moves


class OfflinePolicy:
    """A non-LLM baseline that proposes template instances; returns None when it has nothing new."""

    name = POLICY_NAME

    def __init__(self, templates: TemplateLibrary):
        self.templates = templates

    def draft(self, task: KernelTask, tried: Sequence[str], hints: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
        """Parameters of retrieved feasible traces first, then the defaults, then smaller neighbours."""
        template = self.templates.template_for(task)
        if template is None:
            return None
        seeds = [h["params"] for h in hints if h.get("template") == template.name and h.get("feasible")]
        seeds.append(dict(template.defaults))
        seeds += [{**template.defaults, m["param"]: m["to"]} for m in neighbours(template, template.defaults)
                  if m["direction"] == "down"]
        for params in seeds:
            if all(p in template.space and v in template.space[p] for p, v in params.items()) \
                    and params_key(template.name, params) not in tried:
                return self._proposal(task, template, params, None)
        return None

    def refine(self, task: KernelTask, start_params: dict[str, Any], tried: Sequence[str],
               hints: Sequence[dict[str, Any]], rng: np.random.Generator) -> dict[str, Any] | None:
        """The first untried mutation of the start point: suggested by retrieved practices, then random."""
        template = self.templates.template_for(task)
        if template is None:
            return None
        moves = neighbours(template, start_params)
        suggested = [h["mutation"] for h in hints if h.get("mutation")]
        ordered = [m for s in suggested for m in moves if (m["param"], m["direction"]) == (s["param"], s["direction"])]
        ordered += [moves[i] for i in rng.permutation(len(moves))]
        for move in ordered:
            params = {**start_params, move["param"]: move["to"]}
            if params_key(template.name, params) not in tried:
                return self._proposal(task, template, params, move)
        return None

    def sample(self, task: KernelTask, tried: Sequence[str], rng: np.random.Generator) -> dict[str, Any] | None:
        """An independent random instance (pass@k): each parameter drawn uniformly."""
        template = self.templates.template_for(task)
        if template is None:
            return None
        params = {name: values[int(rng.integers(len(values)))] for name, values in template.space.items()}
        return self._proposal(task, template, params, None)

    def exhausted(self, task: KernelTask, start_params: dict[str, Any] | None, tried: Sequence[str]) -> bool:
        """True when every neighbour of this start point was tried already."""
        template = self.templates.template_for(task)
        if template is None or start_params is None:
            return True
        return all(params_key(template.name, {**start_params, m["param"]: m["to"]}) in tried
                   for m in neighbours(template, start_params))

    def _proposal(self, task: KernelTask, template: KernelTemplate, params: dict[str, Any],
                  move: dict[str, Any] | None) -> dict[str, Any]:
        return {"code": template.render(task, params), "template": template.name, "params": params,
                "params_key": params_key(template.name, params), "mutation": move}
