"""Two-layer rule families: enclosure, must-be-inside, separation and overlap."""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.drc.checks_base import Case, Check, RuleContext, array_of, um
from benchmarks.drc.geometry import Block, diagonal_half, diagonal_rect, nm
from benchmarks.drc.stack import STACK


@dataclass
class PairCheck(Check):
    """A check between layers ``first`` and ``second`` with a limit ``value`` in nm."""

    category: str
    first: str
    second: str
    value: int

    def layers(self) -> list[str]:
        return [self.first, self.second]

    def _output(self, expression: str) -> str:
        return f'{expression}.output("{self.category}", "{self.describe()}")'


def cut_in_metal(context: RuleContext, metal: str, cut: str, left: int, bottom: int, note: str,
                 split: bool = False) -> Block:
    """A cut square inside a metal box with the given left/bottom margins; right/top margins keep metal legal."""
    size = nm(STACK[cut].cut)
    margin = max(context.enclosure.get((metal, cut), 0) + 20, 60)
    right = max(margin, context.min_width(metal) + 10 - size - left)
    top = max(context.safe(metal), -(-2 * context.area.get(metal, 0) // (size + left + right)))
    block = Block(note=note).add_box(cut, 0, 0, size, size)
    if split:
        return block.add_box(metal, -left, -bottom, size // 2, size + top).add_box(metal, size // 2, -bottom,
                                                                                   size + right, size + top)
    return block.add_box(metal, -left, -bottom, size + right, size + top)


class Enclosure(PairCheck):
    """``first`` (a metal) must enclose ``second`` (a cut) by ``value``."""

    kind = "enclosure"

    def constrain(self, context: RuleContext) -> None:
        context.enclosure[(self.first, self.second)] = self.value

    def deck(self) -> str:
        return self._output(f"{self.first}.enclosing({self.second}, {um(self.value)}.um)")

    def describe(self) -> str:
        return f"{self.first} must enclose {self.second} by at least {um(self.value)} um on every side"

    def cases(self, context: RuleContext) -> list[Case]:
        v, metal, cut = self.value, self.first, self.second

        def enclosed(left: int, note: str, split: bool = False) -> Block:
            return cut_in_metal(context, metal, cut, left, v, note, split)

        pitch = 2 * context.safe(metal) + nm(STACK[cut].cut)
        return [Case("at_limit", enclosed(v, "at_limit"), False), Case("wide", enclosed(2 * v, "wide"), False),
                Case("touching", enclosed(v, "touching", split=True), False),
                Case("array", array_of(enclosed(v, ""), 3, pitch, "array"), False),
                Case("just_below", enclosed(v - 5, "just_below"), True),
                Case("far_below", enclosed(v // 2, "far_below"), True),
                Case("zero", enclosed(0, "zero"), True),
                Case("array_below", array_of(enclosed(v - 5, ""), 3, pitch, "array_below"), True)]


class Inside(PairCheck):
    """Every ``first`` shape (a cut) must lie inside ``second`` (a metal); ``value`` is unused (0)."""

    kind = "inside"

    def deck(self) -> str:
        return self._output(f"{self.first}.not_inside({self.second})")

    def describe(self) -> str:
        return f"every {self.first} shape must lie entirely inside {self.second}"

    def cases(self, context: RuleContext) -> list[Case]:
        cut, metal = self.first, self.second
        size = nm(STACK[cut].cut)
        margin = max(context.enclosure.get((metal, cut), 0) + 20, 60)
        enclosure_key = f"enclosure:{metal}:{cut}"
        lone = Block(note="lone").add_box(cut, 0, 0, size, size)
        straddle = Block(note="straddle").add_box(metal, -context.safe(metal), 0, size // 2, context.safe(metal))
        straddle.add_box(cut, 0, 0, size, size)
        pitch = 2 * context.safe(metal) + size
        return [Case("inside", cut_in_metal(context, metal, cut, margin, margin, "inside"), False),
                Case("merged", cut_in_metal(context, metal, cut, margin, margin, "merged", split=True), False),
                Case("edge", cut_in_metal(context, metal, cut, 0, margin, "edge"), False, (enclosure_key,)),
                Case("array", array_of(cut_in_metal(context, metal, cut, margin, margin, ""), 3, pitch, "array"),
                     False),
                Case("lone", lone, True), Case("straddle", straddle, True, (enclosure_key,)),
                Case("array_lone", array_of(lone, 3, pitch, "array_lone"), True)]


class Separation(PairCheck):
    """Shapes of ``first`` and ``second`` (never overlapping here) must be ``value`` apart."""

    kind = "separation"

    def deck(self) -> str:
        return self._output(f"{self.first}.separation({self.second}, {um(self.value)}.um)")

    def describe(self) -> str:
        return f"{self.first} must be separated from {self.second} by at least {um(self.value)} um"

    def cases(self, context: RuleContext) -> list[Case]:
        v, a, b = self.value, self.first, self.second
        side_a, side_b = context.safe(a), context.safe(b)

        def pair(gap: int, note: str) -> Block:
            return Block(note=note).add_box(a, 0, 0, side_a, side_a).add_box(b, side_a + gap, 0,
                                                                             side_a + gap + side_b, side_b)

        def diagonal_pair(gap: int, up: bool, note: str) -> Block:
            half, step = diagonal_half(max(side_a, side_b), True), diagonal_half(gap, up)
            block = diagonal_rect(Block(note=note), a, 0, 0, half, 2 * side_a)
            return diagonal_rect(block, b, step + half, -step - half, half, 2 * side_a)

        pitch = side_a + side_b + 2 * v + max(side_a, side_b)
        return [Case("at_limit", pair(v, "at_limit"), False), Case("far", pair(3 * v, "far"), False),
                Case("diag45", diagonal_pair(v, True, "diag45"), False),
                Case("array", array_of(pair(v, ""), 3, pitch, "array"), False),
                Case("just_below", pair(v - 5, "just_below"), True),
                Case("far_below", pair(v // 2, "far_below"), True),
                Case("diag45_below", diagonal_pair(v - 10, False, "diag45_below"), True),
                Case("array_below", array_of(pair(v - 5, ""), 3, pitch, "array_below"), True)]


class Overlap(PairCheck):
    """Where ``first`` and ``second`` overlap, the overlap must be at least ``value`` wide."""

    kind = "overlap"

    def deck(self) -> str:
        return self._output(f"{self.first}.overlap({self.second}, {um(self.value)}.um)")

    def describe(self) -> str:
        return f"where {self.first} overlaps {self.second}, the overlap must be at least {um(self.value)} um wide"

    def cases(self, context: RuleContext) -> list[Case]:
        v, a, b = self.value, self.first, self.second
        side = max(context.safe(a), context.safe(b), 3 * v)

        def shifted(depth: int, note: str) -> Block:
            return Block(note=note).add_box(a, 0, 0, side, side).add_box(b, side - depth, 0, 2 * side - depth, side)

        wire = max(v + 20, context.min_width(a), context.min_width(b)) * 2
        cross = Block(note="cross").add_box(a, 0, side, 3 * side, side + wire)
        cross.add_box(b, side, 0, side + wire, 2 * side + wire)
        pitch = 3 * side
        return [Case("at_limit", shifted(v, "at_limit"), False), Case("wide", shifted(2 * v, "wide"), False),
                Case("cross", cross, False),
                Case("array", array_of(shifted(v, ""), 3, pitch, "array"), False),
                Case("just_below", shifted(v - 5, "just_below"), True),
                Case("far_below", shifted(v // 2, "far_below"), True),
                Case("array_below", array_of(shifted(v - 5, ""), 3, pitch, "array_below"), True)]
