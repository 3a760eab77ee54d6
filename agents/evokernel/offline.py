"""The offline policy: draft from the target's template kernels, refine by mutating their parameters.

A named, non-LLM baseline that knows nothing about a task beyond its template and what the memory
holds, and reads the retrieved context as a model would (the entries' metadata instead of their text):

- draft: the parameters of retrieved correct traces of the same template come first, those that were
  the fastest kernel of their task (or beat their start point) ahead of the rest; then the template's
  defaults, then smaller neighbours of them;
- refine: first the parameters of a retrieved kernel of the same template that was the fastest of its
  task or beat its start point (a similar task's configuration, adopted whole); then the moves (one
  parameter one step up or down) that retrieved best practices and improving traces made, in retrieval
  order; moves that retrieved traces made without a gain come last; the rest in a seeded random order
  between.

Which entries are retrieved, and so which changes are proposed first, is decided by the memory's
retrieval (Q-values for ``evokernel``, similarity for ``evokernel-noq``).
"""

from __future__ import annotations

import json
from typing import Any, Protocol, Sequence

import numpy as np

from benchmarks.kernels.tasks import KernelTask

POLICY_NAME = "offline policy: template mutation"
ADOPT = "adopt"
"""The direction of a refinement that takes a remembered kernel's parameters whole."""


class KernelTemplate(Protocol):
    """A parameterised kernel of the target language: on npu tile length, buffer count, block_dim, cube tiles,
    the order of the pipes (PREFETCH: a chunk's copy-in issued before the vector work of the one before it)
    and fusion (FUSE: fused stages in one launch or one launch each)."""

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


def remembered_params(hints: Sequence[dict[str, Any]], template: str, gains_only: bool = False
                      ) -> list[dict[str, Any]]:
    """Parameters of the retrieved correct traces of ``template``, in retrieval order, the fastest kernels
    of their tasks (or those faster than their start point) first; ``gains_only``: only those."""
    correct = [h for h in hints if h.get("template") == template and h.get("feasible") and h.get("params")
               and (not gains_only or _gained(h))]
    return [dict(h["params"]) for h in sorted(correct, key=lambda h: not _gained(h))]


def _gained(hint: dict[str, Any]) -> bool:
    return bool(hint.get("new_best") or hint.get("improved"))


def _allowed(template: KernelTemplate, params: dict[str, Any]) -> bool:
    """Every parameter of the template, each with one of its allowed values."""
    return set(params) == set(template.space) and all(v in template.space[p] for p, v in params.items())


def remembered_moves(hints: Sequence[dict[str, Any]]) -> tuple[list[tuple[str, str]], set[tuple[str, str]]]:
    """(moves that made a kernel faster, in retrieval order; moves that did not) from retrieved entries."""
    helped: list[tuple[str, str]] = []
    hurt: set[tuple[str, str]] = set()
    for hint in hints:
        mutation = hint.get("mutation")
        if not mutation or mutation.get("direction") == ADOPT:
            continue
        if (hint.get("gain") or 0) > 1 or hint.get("improved"):
            if _move_key(mutation) not in helped:
                helped.append(_move_key(mutation))
        elif "improved" in hint:
            hurt.add(_move_key(mutation))
    return helped, hurt - set(helped)


def _move_key(move: dict[str, Any]) -> tuple[str, str]:
    return move["param"], move["direction"]


class OfflinePolicy:
    """A non-LLM baseline that proposes template instances; returns None when it has nothing new."""

    name = POLICY_NAME

    def __init__(self, templates: TemplateLibrary):
        self.templates = templates

    def draft(self, task: KernelTask, tried: Sequence[str], hints: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
        """Parameters of retrieved correct traces (the fastest first), then the defaults, then smaller neighbours."""
        template = self.templates.template_for(task)
        if template is None:
            return None
        seeds = remembered_params(hints, template.name)
        seeds.append(dict(template.defaults))
        seeds += [{**template.defaults, m["param"]: m["to"]} for m in neighbours(template, template.defaults)
                  if m["direction"] == "down"]
        for params in seeds:
            if _allowed(template, params) and params_key(template.name, params) not in tried:
                return self._proposal(task, template, params, None)
        return None

    def refine(self, task: KernelTask, start_params: dict[str, Any], tried: Sequence[str],
               hints: Sequence[dict[str, Any]], rng: np.random.Generator) -> dict[str, Any] | None:
        """The first untried move of the start point: remembered gains first, remembered losses last."""
        template = self.templates.template_for(task)
        if template is None:
            return None
        for params in remembered_params(hints, template.name, gains_only=True):
            if params != start_params and _allowed(template, params) and params_key(template.name, params) not in tried:
                return self._proposal(task, template, params, {"param": "all", "direction": ADOPT, "to": params})
        moves = neighbours(template, start_params)
        helped, hurt = remembered_moves(hints)
        shuffled = [moves[i] for i in rng.permutation(len(moves))]
        ordered = [m for key in helped for m in moves if _move_key(m) == key]
        ordered += [m for m in shuffled if _move_key(m) not in hurt] + [m for m in shuffled if _move_key(m) in hurt]
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
