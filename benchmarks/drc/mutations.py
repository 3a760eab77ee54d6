"""Deck mutations: near-miss variants of a deck (limit off by one grid step, wrong layer, missing or
renamed category, a weaker check, a Ruby error). Used by tests and by the offline selection policy."""

from __future__ import annotations

import re
from dataclasses import dataclass

LIMIT = re.compile(r"(\d+\.\d+)\.um")
INPUT = re.compile(r"input\((\d+), (\d+)\)")
OUTPUT_LINE = re.compile(r"^.*\.output\(\"([^\"]+)\".*$", re.MULTILINE)
WEAKER = [(".space(", ".isolated("), (".not_inside(", ".outside("), (".width(", ".notch(")]


@dataclass
class Mutant:
    """A mutated deck and what was changed."""

    name: str
    deck: str


def shift_limit(deck: str, index: int, delta_um: float) -> str:
    """Move the ``index``-th ``X.um`` limit by ``delta_um``."""
    match = list(LIMIT.finditer(deck))[index]
    value = round(float(match.group(1)) + delta_um, 4)
    return deck[:match.start(1)] + f"{value:g}" + deck[match.end(1):]


def swap_layer(deck: str, index: int, layer: tuple[int, int]) -> str:
    """Point the ``index``-th ``input(l, d)`` at another layer."""
    match = list(INPUT.finditer(deck))[index]
    return deck[:match.start()] + f"input({layer[0]}, {layer[1]})" + deck[match.end():]


def drop_output(deck: str, index: int) -> str:
    """Remove the ``index``-th output line (its category is never reported)."""
    match = list(OUTPUT_LINE.finditer(deck))[index]
    return deck[:match.start()] + deck[match.end() + 1:]


def rename_category(deck: str, index: int, suffix: str = "_x") -> str:
    match = list(OUTPUT_LINE.finditer(deck))[index]
    return deck[:match.end(1)] + suffix + deck[match.end(1):]


def break_ruby(deck: str) -> str:
    """A misspelt method: the deck raises NoMethodError on every layout."""
    return deck.replace(".output(", ".outptu(", 1)


def mutants(deck: str) -> list[Mutant]:
    """Every single mutation of ``deck``, each named."""
    found = []
    for index, _ in enumerate(LIMIT.finditer(deck)):
        found += [Mutant(f"limit{index}+5nm", shift_limit(deck, index, 0.005)),
                  Mutant(f"limit{index}-5nm", shift_limit(deck, index, -0.005))]
    for index, match in enumerate(INPUT.finditer(deck)):
        layer, datatype = int(match.group(1)), int(match.group(2))
        found.append(Mutant(f"layer{index}", swap_layer(deck, index, (layer + 1, datatype))))
    outputs = list(OUTPUT_LINE.finditer(deck))
    for index in range(len(outputs)):
        found += [Mutant(f"drop{index}", drop_output(deck, index)), Mutant(f"rename{index}", rename_category(deck, index))]
    for strong, weak in WEAKER:
        if strong in deck:
            found.append(Mutant(f"weaker{strong.strip('.(')}", deck.replace(strong, weak, 1)))
    found.append(Mutant("ruby_error", break_ruby(deck)))
    return found
