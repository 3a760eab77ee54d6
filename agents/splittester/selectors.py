"""Baseline selectors over N candidates: random, best score on generated tests, CodeT dual agreement, MBR-exec."""

from __future__ import annotations

import random

from agents.splittester.evidence import Evidence


def select_random(evidence: Evidence, rng: random.Random) -> int:
    return rng.randrange(len(evidence.decks))


def best_score_ties(evidence: Evidence) -> list[int]:
    """Candidates with the highest agreement with the expected verdicts of the generated tests."""
    scores = [evidence.agreement(candidate) for candidate in range(len(evidence.decks))]
    best = max(scores)
    return [candidate for candidate, score in enumerate(scores) if score == best]


def select_best_score(evidence: Evidence, rng: random.Random) -> int:
    """Highest agreement with the generated tests; ties are broken at random."""
    return rng.choice(best_score_ties(evidence))


def select_codet(evidence: Evidence) -> int:
    """CodeT dual agreement: candidates passing the same set of tests form a consensus set scored
    (number of candidates) x (number of tests passed); the best set's first candidate wins."""
    sets: dict[frozenset, list[int]] = {}
    for candidate in range(len(evidence.decks)):
        if evidence.valid(candidate):
            passed = frozenset(t for t in range(len(evidence.tests)) if evidence.passes(candidate, t))
            sets.setdefault(passed, []).append(candidate)
    if not sets:
        return 0
    best = max(sets.items(), key=lambda item: (len(item[1]) * len(item[0]), -item[1][0]))
    return best[1][0]


def select_mbr(evidence: Evidence) -> int:
    """MBR-exec: the valid candidate whose outputs agree with the most other candidates' outputs, test by test."""
    valid = [c for c in range(len(evidence.decks)) if evidence.valid(c)] or list(range(len(evidence.decks)))
    vectors = {c: evidence.vector(c) for c in valid}

    def risk(candidate: int) -> int:
        return -sum(a == b for other in valid for a, b in zip(vectors[candidate], vectors[other]))

    return min(valid, key=lambda candidate: (risk(candidate), candidate))
