"""Single-layer rule families: width, space, notch and minimum area."""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.drc.checks_base import Case, Check, RuleContext, array_of, um, um2
from benchmarks.drc.geometry import Block, diagonal_half, diagonal_rect, ring


@dataclass
class LimitCheck(Check):
    """A check with one layer and one distance limit ``value`` in nm."""

    category: str
    layer: str
    value: int

    def layers(self) -> list[str]:
        return [self.layer]

    def _output(self, expression: str) -> str:
        return f'{expression}.output("{self.category}", "{self.describe()}")'


class Width(LimitCheck):
    kind = "width"

    def constrain(self, context: RuleContext) -> None:
        context.width[self.layer] = self.value

    def deck(self) -> str:
        return self._output(f"{self.layer}.width({um(self.value)}.um)")

    def describe(self) -> str:
        return f"{self.layer} width must be at least {um(self.value)} um"

    def cases(self, context: RuleContext) -> list[Case]:
        v, layer, safe = self.value, self.layer, context.safe(self.layer)
        length = max(2 * safe, -(-4 * context.area.get(layer, 0) // v))

        def bar(width: int, note: str) -> Block:
            return Block(note=note).add_box(layer, 0, 0, width, length)

        def diagonal(width: int, up: bool, note: str) -> Block:
            return diagonal_rect(Block(note=note), layer, 0, 0, diagonal_half(width, up), length)

        touching = Block(note="touching").add_box(layer, 0, 0, v // 2, length).add_box(layer, v // 2, 0, v, length)
        return [Case("at_limit", bar(v, "at_limit"), False), Case("touching", touching, False),
                Case("diag45", diagonal(v, True, "diag45"), False),
                Case("hole", ring(Block(note="hole"), layer, 0, 0, safe + 2 * v, safe), False),
                Case("array", array_of(bar(v, ""), 4, v + safe, "array"), False),
                Case("just_below", bar(v - 5, "just_below"), True),
                Case("far_below", bar(v // 2, "far_below"), True),
                Case("diag45_below", diagonal(v - 10, False, "diag45_below"), True),
                Case("hole_thin", ring(Block(note="hole_thin"), layer, 0, 0, safe + 2 * (v - 5), safe), True),
                Case("array_below", array_of(bar(v - 5, ""), 3, v + safe, "array_below"), True)]


class Space(LimitCheck):
    kind = "space"

    def constrain(self, context: RuleContext) -> None:
        context.space[self.layer] = self.value

    def deck(self) -> str:
        return self._output(f"{self.layer}.space({um(self.value)}.um)")

    def describe(self) -> str:
        return f"{self.layer} spacing must be at least {um(self.value)} um"

    def cases(self, context: RuleContext) -> list[Case]:
        v, layer, side = self.value, self.layer, context.safe(self.layer)

        def pair(gap: int, note: str) -> Block:
            return Block(note=note).add_box(layer, 0, 0, side, side).add_box(layer, side + gap, 0, 2 * side + gap, side)

        def diagonal_pair(gap: int, up: bool, note: str) -> Block:
            half, step = diagonal_half(side, True), diagonal_half(gap, up)
            block = diagonal_rect(Block(note=note), layer, 0, 0, half, 2 * side)
            return diagonal_rect(block, layer, step + half, -step - half, half, 2 * side)

        box = Block().add_box(layer, 0, 0, side, side)
        return [Case("at_limit", pair(v, "at_limit"), False), Case("touching", pair(0, "touching"), False),
                Case("diag45", diagonal_pair(v, True, "diag45"), False),
                Case("hole", ring(Block(note="hole"), layer, 0, 0, 2 * side + v, v), False),
                Case("array", array_of(box, 4, side + v, "array"), False),
                Case("just_below", pair(v - 5, "just_below"), True),
                Case("far_below", pair(v // 2, "far_below"), True),
                Case("diag45_below", diagonal_pair(v - 10, False, "diag45_below"), True),
                Case("hole_small", ring(Block(note="hole_small"), layer, 0, 0, 2 * side + v - 5, v - 5), True),
                Case("array_below", array_of(box, 3, side + v - 5, "array_below"), True)]


class Notch(LimitCheck):
    kind = "notch"

    def constrain(self, context: RuleContext) -> None:
        context.space[self.layer] = max(context.space.get(self.layer, 0), self.value)

    def deck(self) -> str:
        return self._output(f"{self.layer}.notch({um(self.value)}.um)")

    def describe(self) -> str:
        return f"{self.layer} notch (space between edges of the same polygon) must be at least {um(self.value)} um"

    def cases(self, context: RuleContext) -> list[Case]:
        v, layer, arm = self.value, self.layer, context.safe(self.layer)

        def u_shape(slot: int, note: str) -> Block:
            depth, right = 2 * arm, 2 * arm + slot
            points = [(0, 0), (right, 0), (right, arm + depth), (arm + slot, arm + depth), (arm + slot, arm),
                      (arm, arm), (arm, arm + depth), (0, arm + depth)]
            return Block(note=note).add_polygon(layer, points)

        return [Case("at_limit", u_shape(v, "at_limit"), False), Case("wide", u_shape(2 * v, "wide"), False),
                Case("hole", ring(Block(note="hole"), layer, 0, 0, 2 * arm + v, v), False),
                Case("array", array_of(u_shape(v, ""), 3, 3 * arm + 2 * v, "array"), False),
                Case("just_below", u_shape(v - 5, "just_below"), True),
                Case("far_below", u_shape(v // 2, "far_below"), True),
                Case("hole_small", ring(Block(note="hole_small"), layer, 0, 0, 2 * arm + v - 5, v - 5), True),
                Case("array_below", array_of(u_shape(v - 5, ""), 3, 3 * arm + 2 * v, "array_below"), True)]


@dataclass
class Area(Check):
    """Minimum polygon area; the limit is ``width * height`` nm² of an exact rectangle."""

    category: str
    layer: str
    width: int
    height: int
    kind = "area"

    @property
    def value(self) -> int:
        return self.width * self.height

    def layers(self) -> list[str]:
        return [self.layer]

    def constrain(self, context: RuleContext) -> None:
        context.area[self.layer] = self.value

    def deck(self) -> str:
        return (f'{self.layer}.with_area(nil, {um2(self.value)}).output("{self.category}", '
                f'"{self.describe()}")')

    def describe(self) -> str:
        return f"{self.layer} polygon area must be at least {um2(self.value)} um2"

    def cases(self, context: RuleContext) -> list[Case]:
        w, h, layer, safe = self.width, self.height, self.layer, context.safe(self.layer)

        def rect(height: int, note: str) -> Block:
            return Block(note=note).add_box(layer, 0, 0, w, height)

        small = max(context.min_width(layer) + 10, h // 2)
        halves = Block(note="touching").add_box(layer, 0, 0, w, h // 2).add_box(layer, 0, h // 2, w, h)
        cases = [Case("at_limit", rect(h, "at_limit"), False), Case("touching", halves, False),
                 Case("hole", ring(Block(note="hole"), layer, 0, 0, 3 * safe, safe), False),
                 Case("array", array_of(rect(h, ""), 4, w + safe, "array"), False),
                 Case("just_below", rect(h - 5, "just_below"), True),
                 Case("array_below", array_of(rect(h - 5, ""), 3, w + safe, "array_below"), True)]
        if small < h - 5:
            cases.append(Case("far_below", rect(small, "far_below"), True))
        return cases
