"""SplitTester: target the most promising cluster, ask for a layout that splits it, repeat, then judge."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from agents.splittester.evidence import Evidence, distinct_members
from agents.splittester.testgen import GeneratedTest
from benchmarks.drc.spec import TaskSpec
from sandboxes.telemetry import emit
from tools.drc.render import render_text

Proposer = Callable[[TaskSpec, Evidence, list[int]], list[GeneratedTest]]
"""(spec, evidence, representative candidates) -> one layout meant to split them, with expected verdicts."""
Judge = Callable[[TaskSpec, Evidence, list[int]], int]
"""(spec, evidence, finalist candidates) -> 0-based index of the chosen finalist."""


@dataclass
class SplitTrace:
    """What SplitTester did on one task."""

    rounds: int = 0
    splits: int = 0
    stop: str = ""
    finalists: list[int] = field(default_factory=list)
    choice: int = 0


def split_and_judge(spec: TaskSpec, evidence: Evidence, runner, propose: Proposer, judge: Judge,
                    rounds: int = 8, representatives: int = 3, finalists: int = 3) -> SplitTrace:
    """Run the split rounds on ``evidence`` (extended in place) and return the chosen candidate."""
    trace = SplitTrace()
    while trace.rounds < rounds:
        ranked = evidence.ranked_clusters()
        if not ranked:
            trace.stop = "no valid candidate"
            break
        members = distinct_members(evidence, ranked[0], representatives)
        if len(members) < 2:
            trace.stop = "the best cluster holds one distinct deck"
            break
        trace.rounds += 1
        tests = propose(spec, evidence, members)
        evidence.add(tests, runner)
        split = bool(tests) and bool(evidence.disagreeing_tests(members))
        emit("splittester.round", task=spec.id, round=trace.rounds, tests=len(tests), split=split,
             cluster=len(ranked[0]))
        if not split:
            trace.stop = "a round failed to split the target cluster"
            break
        trace.splits += 1
    else:
        trace.stop = "split budget spent"
    trace.choice, trace.finalists = final_choice(spec, evidence, judge, finalists)
    return trace


def final_choice(spec: TaskSpec, evidence: Evidence, judge: Judge, finalists: int) -> tuple[int, list[int]]:
    """The judge picks among the representatives of the top clusters, shown where they disagree."""
    ranked = evidence.ranked_clusters()
    if not ranked:
        return 0, []
    top = [cluster[0] for cluster in ranked[:finalists]]
    if len(top) == 1:
        return top[0], top
    return top[judge(spec, evidence, top)], top


def history(evidence: Evidence, candidate: int) -> str:
    """The tests so far with their expected verdicts and the cluster's verdicts."""
    lines = []
    for test, case in enumerate(evidence.tests):
        expected = sorted(c for c, bad in case.expected.items() if bad) or ["none"]
        lines.append(f"- {case.name}: expected violated {expected}, these decks report {list(evidence.outcome(candidate, test)) or ['none']}")
    return "\n".join(lines) or "(no tests yet)"


def disagreement_text(spec: TaskSpec, evidence: Evidence, candidates: list[int]) -> str:
    """Each layout where the candidates disagree, rendered as text, with every candidate's verdict."""
    names = spec.layer_names()
    blocks = []
    for test in evidence.disagreeing_tests(candidates):
        case = evidence.tests[test]
        expected = sorted(c for c, bad in case.expected.items() if bad) or ["none"]
        said = "\n".join(f"  candidate {i + 1} reports violated: {list(evidence.outcome(c, test)) or ['none']}"
                         for i, c in enumerate(candidates))
        blocks.append(f"Layout {case.name} (expected violated: {expected}):\n{render_text(case.gds, names)}\n{said}")
    return "\n\n".join(blocks) or "(the candidates agree on every layout)"
