"""What every rule family provides: deck text, a description, and layout cases that pass or violate it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from benchmarks.drc.geometry import Block, nm
from benchmarks.drc.stack import STACK


@dataclass
class Case:
    """One named geometry situation for one check: ``violates`` says whether it breaks the check."""

    name: str
    block: Block
    violates: bool
    conflicts: tuple[str, ...] = ()
    """Keys of other checks that this geometry would also trip; the case is dropped when they are present."""


@dataclass
class RuleContext:
    """Limits of every check in a task, so that each case is clean for the checks it does not target."""

    width: dict[str, int] = field(default_factory=dict)
    space: dict[str, int] = field(default_factory=dict)
    area: dict[str, int] = field(default_factory=dict)
    """Minimum area in nm²."""
    enclosure: dict[tuple[str, str], int] = field(default_factory=dict)
    """Minimum enclosure of a cut (second) by a metal (first), nm."""
    gate: int = 0
    """Minimum gate length (nm), when the task checks it."""
    extension: int = 0
    """Minimum poly endcap (nm), when the task checks it."""
    density: dict[str, tuple[float, float]] = field(default_factory=dict)
    """(minimum, maximum) density per layer."""

    def safe(self, layer: str) -> int:
        """A side length (nm) that satisfies every width, space, notch and area limit on ``layer`` with margin."""
        stack = STACK[layer]
        side = max(500, 2 * self.width.get(layer, nm(stack.width)), 2 * self.space.get(layer, nm(stack.space)),
                   math.ceil(math.sqrt(2 * self.area.get(layer, 0))))
        return int(math.ceil(side / 10.0) * 10)

    def min_width(self, layer: str) -> int:
        return self.width.get(layer, nm(STACK[layer].width))


class Check:
    """A rule family instance. Subclasses set ``kind`` and implement the four methods."""

    kind = "check"
    category: str
    whole_layout = False
    """True when every case is a complete layout (density) rather than a block among others."""

    def key(self) -> str:
        """Identifies the check for conflict filtering: kind and layers."""
        return ":".join([self.kind, *self.layers()])

    def layers(self) -> list[str]:
        raise NotImplementedError

    def constrain(self, context: RuleContext) -> None:
        """Record this check's limits into the shared context."""

    def deck(self) -> str:
        """Deck lines (layers are Ruby variables named like the layers)."""
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def cases(self, context: RuleContext) -> list[Case]:
        raise NotImplementedError


def um(value_nm: int | float) -> str:
    """Nanometres as a µm literal for decks and descriptions (no float noise)."""
    return f"{value_nm / 1000:.3f}".rstrip("0").rstrip(".")


def um2(value_nm2: int) -> str:
    """Square nanometres as a µm² literal."""
    return f"{value_nm2 / 1e6:.6f}".rstrip("0").rstrip(".")


def array_of(case_block: Block, columns: int, pitch: int, note: str) -> Block:
    """The same shapes repeated as a one-row cell array."""
    return Block(shapes=list(case_block.shapes), note=note, array=(columns, 1, pitch, 0))
