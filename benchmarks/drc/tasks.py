"""Task templates: rule families combined on SKY130-like layers with seeded parameters, and their gold decks."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from benchmarks.drc.checks_base import Check
from benchmarks.drc.checks_device import Coverage, Density, Extension, GateLength
from benchmarks.drc.checks_pair import Enclosure, Inside, Overlap, Separation
from benchmarks.drc.checks_single import Area, Notch, Space, Width
from benchmarks.drc.spec import TaskSpec
from benchmarks.drc.stack import CUT_PAIRS, METALS, STACK

FACTORS = [0.8, 1.0, 1.2, 1.5]
"""Scalings of SKY130-like limits, so that tasks do not share numbers."""


def snap(value_um: float, factor: float = 1.0, minimum: int = 30) -> int:
    """``value_um * factor`` in nm, on a 5 nm grid, at least ``minimum``."""
    return max(minimum, int(round(value_um * 1000 * factor / 5.0)) * 5)


@dataclass
class Template:
    """A family combination: a name, the layer choices, and a builder of checks from (layer choice, factor, rng)."""

    name: str
    title: str
    choices: list
    build: Callable[[object, float, random.Random], list[Check]]


def _width_space(layer, factor, rng):
    s = STACK[layer]
    return [Width(f"{s.prefix}.1", layer, snap(s.width, factor)), Space(f"{s.prefix}.2", layer, snap(s.space, factor))]


def _area(layer, factor, rng, width: int) -> Area:
    s = STACK[layer]
    target = (s.area or 4 * s.width * s.width) * 1e6 * factor
    side = width + 5 * rng.randint(0, 8)
    return Area(f"{s.prefix}.6", layer, side, max(int(round(target / side)), width + 20))


def _width_area(layer, factor, rng):
    width = Width(f"{STACK[layer].prefix}.1", layer, snap(STACK[layer].width, factor))
    return [width, _area(layer, factor, rng, width.value)]


def _width_space_area(layer, factor, rng):
    checks = _width_space(layer, factor, rng)
    return checks + [_area(layer, factor, rng, checks[0].value)]


def _width_notch(layer, factor, rng):
    s = STACK[layer]
    return [Width(f"{s.prefix}.1", layer, snap(s.width, factor)), Notch(f"{s.prefix}.3", layer, snap(s.space, factor))]


def _enclosure(pair, factor, rng):
    metal, cut = pair
    level = "4" if metal == _lower_metal(cut) else "5"
    cut_prefix, metal_prefix = STACK[cut].prefix, STACK[metal].prefix
    value = snap(rng.choice([0.03, 0.04, 0.05, 0.06, 0.065]), factor)
    return [Enclosure(f"{cut_prefix}.{level}a.{metal_prefix}", metal, cut, value),
            Inside(f"{cut_prefix}.{level}.{metal_prefix}", cut, metal, 0)]


def _lower_metal(cut: str) -> str:
    return next(metal for metal, c in CUT_PAIRS if c == cut)


def _transistor(_, factor, rng):
    gate = snap(0.15, factor)
    extension = min(snap(0.13, rng.choice(FACTORS)), gate - 20)
    return [GateLength("poly.1a", gate), Extension("poly.8", extension)]


def _separation(pair, factor, rng):
    first, second, base = pair
    s = STACK[first]
    return [Separation(f"{s.prefix}.sep.{STACK[second].prefix}", first, second, snap(base, factor)),
            Width(f"{s.prefix}.1", first, snap(s.width, factor))]


def _overlap(pair, factor, rng):
    first, second = pair
    s = STACK[first]
    return [Overlap(f"{s.prefix}.ov.{STACK[second].prefix}", first, second, snap(rng.choice([0.1, 0.14, 0.2]), factor)),
            Width(f"{s.prefix}.1", first, snap(s.width, factor))]


def _density(layer, factor, rng):
    prefix = STACK[layer].prefix
    low, high = rng.choice([0.1, 0.2, 0.3, 0.35]), rng.choice([0.6, 0.7, 0.8, 0.85])
    return [Density(f"{prefix}.pd.1", layer, "min", low, high), Density(f"{prefix}.pd.2", layer, "max", low, high)]


def _coverage(_, factor, rng):
    return [Coverage("psd.cov"), Width("nwell.1", "nwell", snap(0.84, factor))]


TEMPLATES = [
    Template("width_space", "{0} width and spacing", METALS + ["poly", "diff"], _width_space),
    Template("width_area", "{0} width and minimum area", METALS, _width_area),
    Template("width_space_area", "{0} width, spacing and area", METALS, _width_space_area),
    Template("width_notch", "{0} width and notch", METALS + ["poly"], _width_notch),
    Template("enclosure", "{0[0]} enclosure of {0[1]}", CUT_PAIRS, _enclosure),
    Template("transistor", "gate length and poly endcap", [None], _transistor),
    Template("separation", "{0[0]} to {0[1]} separation",
             [("poly", "diff", 0.075), ("tap", "diff", 0.13), ("licon1", "poly", 0.055), ("mcon", "poly", 0.09),
              ("nsdm", "psdm", 0.13)], _separation),
    Template("overlap", "{0[0]} overlap with {0[1]}",
             [("met1", "met2"), ("met2", "met3"), ("met3", "met4"), ("li1", "met1"), ("poly", "li1")], _overlap),
    Template("density", "{0} density window", METALS + ["poly"], _density),
    Template("coverage", "p implant coverage of diff in nwell", [None], _coverage),
]


def build_deck(task_id: str, title: str, checks: list[Check]) -> str:
    """The gold deck: conventions header, one input per layer, one output per check."""
    layers = list(dict.fromkeys(layer for check in checks for layer in check.layers()))
    lines = [f"# {task_id}: {title}", "source($input)", f'report("{title}", $output)']
    lines += [f"{name} = input({STACK[name].layer}, {STACK[name].datatype})" for name in layers]
    lines += [check.deck() for check in checks]
    return "\n".join(lines) + "\n"


def make_spec(task_id: str, template: Template, choice, checks: list[Check]) -> TaskSpec:
    """The task's spec: title, natural-language description, layers, rules and gold deck."""
    title = template.title.format(choice)
    layers = list(dict.fromkeys(layer for check in checks for layer in check.layers()))
    layer_text = ", ".join(f"{name} ({STACK[name].layer}/{STACK[name].datatype})" for name in layers)
    rules_text = "; ".join(f"{check.category}: {check.describe()}" for check in checks)
    return TaskSpec(id=task_id, title=title, family=template.name,
                    description=f"Layers: {layer_text}. Rules: {rules_text}. All distances in micrometres.",
                    layers=[STACK[name].spec() for name in layers],
                    rules=[{"category": check.category, "description": check.describe()} for check in checks],
                    gold_deck=build_deck(task_id, title, checks))
