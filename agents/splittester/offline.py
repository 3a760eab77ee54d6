"""The offline policy (no model): gold-like deck templates parsed from the spec and mutated into N
candidates; tests from rule-aware geometry; splits by searching geometry cases; judging by agreement."""

from __future__ import annotations

import math
import random
import re

from agents.splittester.evidence import Evidence
from agents.splittester.testgen import GeneratedTest
from benchmarks.drc.checks_base import Check
from benchmarks.drc.checks_device import Coverage, Density, Extension, GateLength
from benchmarks.drc.checks_pair import Enclosure, Inside, Overlap, Separation
from benchmarks.drc.checks_single import Area, Notch, Space, Width
from benchmarks.drc.geometry import compose, nm
from benchmarks.drc.layouts import usable_cases
from benchmarks.drc.mutations import mutants
from benchmarks.drc.spec import TaskSpec
from benchmarks.drc.stack import STACK
from benchmarks.drc.tasks import build_deck

NAME = "offline policy: deck-template mutation + rule-aware geometry tests"
TEMPLATE_SHARE = 0.3
"""Share of samples that are the unmutated template, like a model that is right a third of the time."""
NUMBER = r"([\d.]+)"
PATTERNS = [
    (rf"^(\w+) width must be at least {NUMBER} um$", lambda c, m: Width(c, m[1], nm(float(m[2])))),
    (rf"^(\w+) spacing must be at least {NUMBER} um$", lambda c, m: Space(c, m[1], nm(float(m[2])))),
    (rf"^(\w+) notch .* at least {NUMBER} um$", lambda c, m: Notch(c, m[1], nm(float(m[2])))),
    (rf"^(\w+) polygon area must be at least {NUMBER} um2$", lambda c, m: _area(c, m[1], float(m[2]))),
    (rf"^(\w+) must enclose (\w+) by at least {NUMBER} um", lambda c, m: Enclosure(c, m[1], m[2], nm(float(m[3])))),
    (r"^every (\w+) shape must lie entirely inside (\w+)$", lambda c, m: Inside(c, m[1], m[2], 0)),
    (rf"^(\w+) must be separated from (\w+) by at least {NUMBER} um$",
     lambda c, m: Separation(c, m[1], m[2], nm(float(m[3])))),
    (rf"^where (\w+) overlaps (\w+), the overlap must be at least {NUMBER} um wide$",
     lambda c, m: Overlap(c, m[1], m[2], nm(float(m[3])))),
    (rf"^transistor gate length .* at least {NUMBER} um$", lambda c, m: GateLength(c, nm(float(m[1])))),
    (rf"^poly must extend beyond diff .* at least {NUMBER} um$", lambda c, m: Extension(c, nm(float(m[1])))),
    (r"^every diff area inside nwell must be covered by psdm$", lambda c, m: Coverage(c)),
]
DENSITY = re.compile(r"^(\w+) density inside the boundary must be at (least|most) (\d+)%$")


def _area(category: str, layer: str, value_um2: float) -> Area:
    """An area check whose limit is an exact rectangle: the largest divisor below the square root."""
    total = int(round(value_um2 * 1e6))
    width = next(d for d in range(int(math.isqrt(total)), 0, -1) if total % d == 0)
    return Area(category, layer, width, total // width)


def parse_checks(spec: TaskSpec) -> list[Check]:
    """The spec's rules as checks, where the description follows a known phrasing."""
    checks, densities = [], {}
    for rule in spec.rules:
        density = DENSITY.match(rule.description)
        if density:
            densities[rule.category] = (density[1], "min" if density[2] == "least" else "max", int(density[3]) / 100)
            continue
        for pattern, build in PATTERNS:
            match = re.match(pattern, rule.description)
            if match:
                checks.append(build(rule.category, match))
                break
    bounds = {bound: value for _, bound, value in densities.values()}
    for category, (layer, bound, _) in densities.items():
        checks.append(Density(category, layer, bound, bounds.get("min", 0.0), bounds.get("max", 1.0)))
    return checks


class OfflinePolicy:
    """Every role of the pipeline without a model; see the module docstring."""

    name = NAME

    def __init__(self, runner, rng: random.Random):
        self.runner = runner
        self.rng = rng
        self._pool: dict[str, list[GeneratedTest]] = {}

    def synthesize(self, spec: TaskSpec, count: int) -> list[str]:
        """Each sample is the template with probability ``TEMPLATE_SHARE``, else one random mutation of it
        (at least one sample is the template)."""
        template = build_deck(spec.id, spec.title, parse_checks(spec))
        variants = [mutant.deck for mutant in mutants(template)]
        chosen = [template if self.rng.random() < TEMPLATE_SHARE else self.rng.choice(variants) for _ in range(count)]
        if template not in chosen:
            chosen[self.rng.randrange(count)] = template
        return chosen

    def initial_tests(self, spec: TaskSpec) -> list[GeneratedTest]:
        """One passing layout and one just-below layout per check."""
        pool = self._geometry_pool(spec)
        clean = [test for test in pool if not any(test.expected.values())][:1]
        return clean + [test for test in pool if test.name.endswith("/just_below")]

    def propose(self, spec: TaskSpec, evidence: Evidence, members: list[int]) -> list[GeneratedTest]:
        """The first unused geometry case on which the representatives disagree."""
        used = {test.name for test in evidence.tests}
        pool = [test for test in self._geometry_pool(spec) if test.name not in used]
        if not pool:
            return []
        matrix = self.runner.evaluate_matrix([evidence.decks[m] for m in members], [test.gds for test in pool])
        for index, test in enumerate(pool):
            outcomes = {(v.status, tuple(sorted(c for c in v.counts if v.violated(c)))) for v in
                        (row[index] for row in matrix)}
            if len(outcomes) > 1:
                return [test]
        return []

    def judge(self, spec: TaskSpec, evidence: Evidence, finalists: list[int]) -> int:
        """The finalist that agrees best with the expected verdicts (the earliest on ties)."""
        scores = [evidence.agreement(candidate) for candidate in finalists]
        return scores.index(max(scores))

    def blind_judge(self, spec: TaskSpec, decks: list[str]) -> int | None:
        """Not available without a model."""
        return None

    def _geometry_pool(self, spec: TaskSpec) -> list[GeneratedTest]:
        """One layout per geometry case of every parsed check, labelled by construction."""
        if spec.id not in self._pool:
            checks = parse_checks(spec)
            layers = {n: (STACK[n].layer, STACK[n].datatype) for check in checks for n in check.layers()}
            boundary = (0, 0, 20000, 20000) if any(check.whole_layout for check in checks) else None
            tests = []
            for check, cases in zip(checks, usable_cases(checks).values()):
                for case in cases:
                    labels = {c: (c == check.category and case.violates) for c in spec.categories}
                    tests.append(GeneratedTest(f"{check.category}/{case.name}",
                                               compose([case.block], layers, boundary=boundary), labels, "geometry"))
            self._pool[spec.id] = tests
        return self._pool[spec.id]
