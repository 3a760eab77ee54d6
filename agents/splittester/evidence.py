"""Candidates' verdicts on tests: verdict vectors, agreement with expected verdicts, clusters."""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.splittester.testgen import GeneratedTest
from tools.drc.runner import LayoutVerdict

Vector = tuple


@dataclass
class Evidence:
    """Every candidate deck run on every test so far: ``verdicts[candidate][test]``."""

    decks: list[str]
    categories: list[str]
    tests: list[GeneratedTest] = field(default_factory=list)
    verdicts: list[list[LayoutVerdict]] = field(default_factory=list)

    def add(self, tests: list[GeneratedTest], runner) -> None:
        """Run every distinct candidate on ``tests`` (one batch) and append the results."""
        if not tests:
            return
        unique = list(dict.fromkeys(self.decks))
        rows = dict(zip(unique, runner.evaluate_matrix(unique, [test.gds for test in tests])))
        matrix = [rows[deck] for deck in self.decks]
        self.tests += tests
        self.verdicts = [old + new for old, new in zip(self.verdicts, matrix)] if self.verdicts else matrix

    def outcome(self, candidate: int, test: int) -> Vector:
        """What a candidate said on a test: ``("error",)`` or the sorted violated categories."""
        verdict = self.verdicts[candidate][test]
        if not verdict.ok:
            return ("error",)
        return tuple(sorted(category for category in verdict.categories() if verdict.violated(category)))

    def vector(self, candidate: int) -> Vector:
        return tuple(self.outcome(candidate, test) for test in range(len(self.tests)))

    def valid(self, candidate: int) -> bool:
        """Ran without error on every test."""
        return all(verdict.ok for verdict in self.verdicts[candidate]) if self.tests else True

    def passes(self, candidate: int, test: int) -> bool:
        """The candidate's verdict on ``test`` equals the expected verdict in every category."""
        verdict = self.verdicts[candidate][test]
        expected = self.tests[test].expected
        return verdict.ok and all(verdict.violated(c) == expected[c] for c in self.categories)

    def agreement(self, candidate: int) -> float:
        """Fraction of (test, category) verdicts that match the expected ones (errors match nothing)."""
        if not self.tests:
            return 0.0
        hits = 0
        for test, case in enumerate(self.tests):
            verdict = self.verdicts[candidate][test]
            hits += sum(verdict.ok and verdict.violated(c) == case.expected[c] for c in self.categories)
        return hits / (len(self.tests) * len(self.categories))

    def clusters(self) -> list[list[int]]:
        """Valid candidates grouped by identical verdict vectors, in order of first member."""
        groups: dict[Vector, list[int]] = {}
        for candidate in range(len(self.decks)):
            if self.valid(candidate):
                groups.setdefault(self.vector(candidate), []).append(candidate)
        return list(groups.values())

    def cluster_score(self, cluster: list[int]) -> float:
        """SplitTester's target score: agreement with the expected verdicts times cluster size."""
        return self.agreement(cluster[0]) * len(cluster)

    def ranked_clusters(self) -> list[list[int]]:
        return sorted(self.clusters(), key=lambda cluster: (-self.cluster_score(cluster), cluster[0]))

    def disagreeing_tests(self, candidates: list[int]) -> list[int]:
        """Tests on which the given candidates do not all say the same."""
        return [test for test in range(len(self.tests))
                if len({self.outcome(candidate, test) for candidate in candidates}) > 1]


def distinct_members(evidence: Evidence, cluster: list[int], limit: int) -> list[int]:
    """Up to ``limit`` members of a cluster whose deck texts differ."""
    chosen, seen = [], set()
    for candidate in cluster:
        text = evidence.decks[candidate].strip()
        if text not in seen:
            seen.add(text)
            chosen.append(candidate)
        if len(chosen) == limit:
            break
    return chosen
