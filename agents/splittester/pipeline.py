"""One task end to end: sample candidates, generate tests, select with every method, score on the suite."""

from __future__ import annotations

import json
import random
from pathlib import Path

from agents.splittester import selectors
from agents.splittester.config import SplitTesterConfig
from agents.splittester.evidence import Evidence
from agents.splittester.splitter import split_and_judge
from benchmarks.drc.harness import evaluate_many
from benchmarks.drc.spec import DrcTask
from sandboxes.telemetry import emit

SELECTORS = ["random", "best_score", "codet", "mbr_exec", "llm_judge_no_exec", "splittester"]


def solve_task(task: DrcTask, policy, runner, config: SplitTesterConfig, artifacts: Path | None = None) -> dict:
    """Run synthesis and every selector on one task; return its report row."""
    spec = task.spec
    rng = random.Random(f"{config.seed}-{spec.id}")
    decks = policy.synthesize(spec, config.n)
    evidence = Evidence(decks, spec.categories)
    evidence.add(policy.initial_tests(spec), runner)
    initial_tests = len(evidence.tests)
    picks = {"random": selectors.select_random(evidence, rng),
             "best_score": selectors.select_best_score(evidence, rng),
             "codet": selectors.select_codet(evidence), "mbr_exec": selectors.select_mbr(evidence),
             "llm_judge_no_exec": policy.blind_judge(spec, decks)}
    ties = len(selectors.best_score_ties(evidence))
    trace = split_and_judge(spec, evidence, runner, policy.propose, policy.judge, config.rounds,
                            config.representatives, config.finalists)
    picks["splittester"] = trace.choice
    scores = _score_unique(task, decks, runner)
    emit("splittester.task", task=spec.id, splits=trace.splits, stop=trace.stop)
    if artifacts is not None:
        _write_artifacts(artifacts / spec.id, decks, picks, scores)
        write_evidence(artifacts / spec.id, evidence)
    successes = [score.success for score in scores]
    row = {"task": spec.id, "candidates": len(decks), "tests": initial_tests,
           "valid": sum(evidence.valid(c) for c in range(len(decks))) if initial_tests else None,
           "compile_rate": round(sum(s.compile_rate for s in scores) / len(scores), 4),
           "error_rate": round(sum(s.compile_rate < 1 for s in scores) / len(scores), 4),
           "pass@1": round(sum(successes) / len(successes), 4), "oracle": any(successes),
           "best_score_ties": ties}
    row.update({name: (successes[pick] if pick is not None else None) for name, pick in picks.items()})
    row.update({"split_rounds": trace.rounds, "splits": trace.splits, "stop": trace.stop})
    return row


def _score_unique(task: DrcTask, decks: list[str], runner):
    """Suite scores of every candidate, running each distinct deck once."""
    unique = list(dict.fromkeys(decks))
    by_deck = dict(zip(unique, evaluate_many(task, unique, runner)))
    return [by_deck[deck] for deck in decks]


def _write_artifacts(folder: Path, decks: list[str], picks: dict, scores) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for index, deck in enumerate(decks):
        (folder / f"candidate_{index:02d}.drc").write_text(deck)
    summary = {"picks": picks, "scores": [{"success": s.success, "reason": s.reason} for s in scores]}
    (folder / "selection.json").write_text(json.dumps(summary, indent=1))


def write_evidence(folder: Path, evidence: Evidence) -> None:
    """Every test layout (``tests/NAME.gds``) and ``evidence.json``: each test's expected verdicts and what every
    candidate reported on it (the violated categories, or ``error`` with the deck's error)."""
    tests = folder / "tests"
    tests.mkdir(parents=True, exist_ok=True)
    listed = []
    for index, case in enumerate(evidence.tests):
        name = f"{index:02d}_{''.join(c if c.isalnum() or c in '-_' else '_' for c in case.name)[:60]}.gds"
        (tests / name).write_bytes(case.gds)
        listed.append({"name": case.name, "file": f"tests/{name}", "origin": case.origin,
                       "expected": {category: bool(bad) for category, bad in case.expected.items()}})
    verdicts = [[{"said": list(evidence.outcome(candidate, test)), "error": row[test].error[:300]}
                 for test in range(len(evidence.tests))] for candidate, row in enumerate(evidence.verdicts)]
    (folder / "evidence.json").write_text(json.dumps({"categories": evidence.categories, "tests": listed,
                                                      "verdicts": verdicts}, indent=1))
