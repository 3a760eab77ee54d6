"""Rule families over derived layers: gate length, poly endcap, implant coverage, and density."""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.drc.checks_base import Case, Check, RuleContext, array_of, um
from benchmarks.drc.geometry import Block

DIFF_MARGIN = 600
"""Diffusion beyond the gate on each side (nm)."""
DIFF_HEIGHT = 800
"""Transistor width: diffusion height under the gate (nm)."""


def transistor(poly_width: int, endcap_top: int, endcap_bottom: int, note: str, fingers: int = 1) -> Block:
    """Diffusion crossed by ``fingers`` vertical poly gates with the given endcaps."""
    finger_pitch = poly_width + 2 * DIFF_MARGIN
    block = Block(note=note).add_box("diff", 0, 0, fingers * finger_pitch, DIFF_HEIGHT)
    for finger in range(fingers):
        left = DIFF_MARGIN + finger * finger_pitch
        block.add_box("poly", left, -endcap_bottom, left + poly_width, DIFF_HEIGHT + endcap_top)
    return block


@dataclass
class DeviceCheck(Check):
    """A transistor-level check on poly over diff with a limit ``value`` in nm."""

    category: str
    value: int

    def layers(self) -> list[str]:
        return ["poly", "diff"]

    def _output(self, expression: str) -> str:
        return f'{expression}.output("{self.category}", "{self.describe()}")'


class GateLength(DeviceCheck):
    kind = "gate"

    def constrain(self, context: RuleContext) -> None:
        context.gate = self.value

    def deck(self) -> str:
        return self._output(f"(poly & diff).width({um(self.value)}.um)")

    def describe(self) -> str:
        return f"transistor gate length (poly over diff) must be at least {um(self.value)} um"

    def cases(self, context: RuleContext) -> list[Case]:
        v, cap = self.value, max(context.extension + 50, 200)
        floor = context.extension + 10
        pitch = v + 2 * DIFF_MARGIN + 2000
        cases = [Case("at_limit", transistor(v, cap, cap, "at_limit"), False),
                 Case("wide", transistor(2 * v, cap, cap, "wide"), False),
                 Case("fingers", transistor(v, cap, cap, "fingers", fingers=2), False),
                 Case("array", array_of(transistor(v, cap, cap, ""), 3, pitch, "array"), False),
                 Case("array_below", array_of(transistor(v - 5, cap, cap, ""), 3, pitch, "array_below"), True)]
        if v - 5 >= floor:
            cases.append(Case("just_below", transistor(v - 5, cap, cap, "just_below"), True))
        if max(v * 6 // 10, floor) < v - 5:
            cases.append(Case("far_below", transistor(max(v * 6 // 10, floor), cap, cap, "far_below"), True))
        return cases


class Extension(DeviceCheck):
    kind = "extension"

    def constrain(self, context: RuleContext) -> None:
        context.extension = self.value

    def deck(self) -> str:
        return self._output(f"(poly - diff).interacting(poly & diff).width({um(self.value)}.um)")

    def describe(self) -> str:
        return f"poly must extend beyond diff (gate endcap) by at least {um(self.value)} um"

    def cases(self, context: RuleContext) -> list[Case]:
        v = self.value
        width = max(context.gate, v + 20, 150)
        pitch = width + 2 * DIFF_MARGIN + 2000
        return [Case("at_limit", transistor(width, v, v, "at_limit"), False),
                Case("long", transistor(width, 3 * v, 2 * v, "long"), False),
                Case("fingers", transistor(width, v, v, "fingers", fingers=2), False),
                Case("array", array_of(transistor(width, v, v, ""), 3, pitch, "array"), False),
                Case("just_below", transistor(width, v - 5, v, "just_below"), True),
                Case("far_below", transistor(width, v, v // 2, "far_below"), True),
                Case("array_below", array_of(transistor(width, v - 5, v, ""), 3, pitch, "array_below"), True)]


@dataclass
class Coverage(Check):
    """Diffusion inside nwell must be covered by the p implant (psdm): a layer combination."""

    category: str
    kind = "coverage"

    def layers(self) -> list[str]:
        return ["diff", "nwell", "psdm"]

    def deck(self) -> str:
        return f'diff.and(nwell).not(psdm).output("{self.category}", "{self.describe()}")'

    def describe(self) -> str:
        return "every diff area inside nwell must be covered by psdm"

    def cases(self, context: RuleContext) -> list[Case]:
        well = 2 * context.safe("nwell")
        low, high = well // 2 - 400, well // 2 + 400

        def device(implant: tuple[int, int, int, int] | None, note: str, in_well: bool = True) -> Block:
            block = Block(note=note).add_box("diff", low, low, high, high)
            if in_well:
                block.add_box("nwell", 0, 0, well, well)
            if implant:
                block.add_box("psdm", *implant)
            return block

        pitch = well + context.safe("nwell") * 2
        return [Case("covered", device((low - 130, low - 130, high + 130, high + 130), "covered"), False),
                Case("exact", device((low, low, high, high), "exact"), False),
                Case("outside_well", device(None, "outside_well", in_well=False), False),
                Case("array", array_of(device((low, low, high, high), ""), 3, pitch, "array"), False),
                Case("uncovered", device(None, "uncovered"), True),
                Case("partial", device((low, low, (low + high) // 2, high), "partial"), True),
                Case("array_uncovered", array_of(device(None, ""), 3, pitch, "array_uncovered"), True)]


BOUNDARY = 20000
"""Side of the density window (nm); layouts carry it on the boundary layer."""
STRIPES = 4


def stripes(layer: str, density: float, note: str, as_array: bool = False) -> Block:
    """``STRIPES`` full-height stripes inside the boundary with the given total density."""
    pitch = BOUNDARY // STRIPES
    width = int(round(density * BOUNDARY / STRIPES))
    if as_array:
        return Block(note=note, array=(STRIPES, 1, pitch, 0)).add_box(layer, 0, 0, width, BOUNDARY)
    block = Block(note=note)
    for index in range(STRIPES):
        block.add_box(layer, index * pitch, 0, index * pitch + width, BOUNDARY)
    return block


@dataclass
class Density(Check):
    """Density of ``layer`` inside the boundary must be at least ``low`` (bound="min") or at most ``high``."""

    category: str
    layer: str
    bound: str
    low: float
    high: float
    kind = "density"
    whole_layout = True

    def layers(self) -> list[str]:
        return [self.layer, "boundary"]

    def key(self) -> str:
        return f"density-{self.bound}:{self.layer}"

    def deck(self) -> str:
        ratio = f"{self.layer}_density"
        test = f"{ratio} < {self.low}" if self.bound == "min" else f"{ratio} > {self.high}"
        return (f"{ratio} = ({self.layer} & boundary).area / boundary.area\n"
                f'({test} ? boundary : boundary - boundary).output("{self.category}", "{self.describe()}")')

    def describe(self) -> str:
        if self.bound == "min":
            return f"{self.layer} density inside the boundary must be at least {self.low:.0%}"
        return f"{self.layer} density inside the boundary must be at most {self.high:.0%}"

    def cases(self, context: RuleContext) -> list[Case]:
        layer, low, high = self.layer, self.low, self.high
        if self.bound == "min":
            return [Case("near_min", stripes(layer, low + 0.01, "near_min"), False),
                    Case("middle", stripes(layer, (low + high) / 2, "middle", as_array=True), False),
                    Case("just_below", stripes(layer, low - 0.01, "just_below"), True),
                    Case("far_below", stripes(layer, low / 2, "far_below", as_array=True), True),
                    Case("empty", Block(note="empty"), True)]
        return [Case("near_max", stripes(layer, high - 0.01, "near_max"), False),
                Case("just_above", stripes(layer, high + 0.01, "just_above"), True),
                Case("far_above", stripes(layer, min(0.98, high + 0.15), "far_above", as_array=True), True)]
