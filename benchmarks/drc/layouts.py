"""Labelled layouts for a task: passing ones, ones that violate exactly one category, and combinations."""

from __future__ import annotations

import random

from benchmarks.drc.checks_base import Case, Check, RuleContext
from benchmarks.drc.checks_device import BOUNDARY
from benchmarks.drc.geometry import compose
from benchmarks.drc.spec import LabelledLayout
from benchmarks.drc.stack import STACK


def usable_cases(checks: list[Check]) -> dict[str, list[Case]]:
    """Each check's cases, minus those that would also trip another check of the task."""
    context = RuleContext()
    for check in checks:
        check.constrain(context)
    keys = {check.key() for check in checks}
    return {check.category: [case for case in check.cases(context) if not keys & set(case.conflicts)]
            for check in checks}


def build_layouts(checks: list[Check], rng: random.Random) -> list[LabelledLayout]:
    """All labelled layouts of a task; labels are True for violated categories."""
    cases = usable_cases(checks)
    layers = {name: (STACK[name].layer, STACK[name].datatype)
              for check in checks for name in check.layers()}
    if any(check.whole_layout for check in checks):
        return _whole_layouts(checks, cases, layers)
    return _block_layouts(checks, cases, layers, rng)


def _labels(checks: list[Check], violated: set[str]) -> dict[str, bool]:
    return {check.category: check.category in violated for check in checks}


def _whole_layouts(checks, cases, layers) -> list[LabelledLayout]:
    """One layout per case (density): the case is the whole layout inside the boundary."""
    layouts = []
    for check in checks:
        for case in cases[check.category]:
            gds = compose([case.block], layers, boundary=(0, 0, BOUNDARY, BOUNDARY))
            violated = {check.category} if case.violates else set()
            layouts.append(LabelledLayout.from_gds(f"{check.category}-{case.name}", gds, _labels(checks, violated),
                                                   note=case.name))
    return layouts


def _block_layouts(checks, cases, layers, rng: random.Random) -> list[LabelledLayout]:
    clean = {c: [case for case in cs if not case.violates] for c, cs in cases.items()}
    bad = {c: [case for case in cs if case.violates] for c, cs in cases.items()}
    anchors = [clean[check.category][0] for check in checks]
    layouts = [_layout("clean-all", [case for check in checks for case in clean[check.category]], layers, checks,
                       set())]
    for check in checks:
        others = [anchor for anchor in anchors if anchor not in clean[check.category]]
        layouts.append(_layout(f"clean-{check.category}", clean[check.category] + others, layers, checks, set()))
    for check in checks:
        for case in bad[check.category]:
            blocks = _shuffled([case] + anchors, rng)
            layouts.append(_layout(f"{check.category}-{case.name}", blocks, layers, checks, {check.category}))
    layouts.append(_layout("all-violated", _shuffled([bad[c.category][0] for c in checks] + anchors, rng),
                           layers, checks, {c.category for c in checks}))
    if len(checks) >= 3:
        chosen = rng.sample(checks, 2)
        blocks = [rng.choice(bad[c.category]) for c in chosen] + anchors
        layouts.append(_layout("two-violated", _shuffled(blocks, rng), layers, checks, {c.category for c in chosen}))
    return layouts


def _shuffled(items: list, rng: random.Random) -> list:
    items = list(items)
    rng.shuffle(items)
    return items


def _layout(name: str, cases: list[Case], layers, checks, violated: set[str]) -> LabelledLayout:
    gds = compose([case.block for case in cases], layers)
    note = ", ".join(case.name for case in cases)
    return LabelledLayout.from_gds(name, gds, _labels(checks, violated), note=note)
