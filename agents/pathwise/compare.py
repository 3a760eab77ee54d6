"""PathWise, EoH-style evolution and random sampling side by side: same problem, budget, seeds and evaluator.

Each method runs once per seed as its own ``pathwise`` run (offline when no model is given), and its best
heuristic is scored on the test sets. One row per test set puts the methods' gaps beside each other, and
beside the classic baselines. A method's gap on a set is the mean over seeds; its standard error is the
instance-sampling error of that set with one seed, and the spread over seeds (std / sqrt(seeds)) with
several.
"""

from __future__ import annotations

import math
from typing import Any

from agents.pathwise.context import PathWiseConfig
from agents.runtime.launch import execute_run
from agents.runtime.run import Run
from benchmarks.report import Report

METHODS = ("pathwise", "eoh", "random")
SET_KEYS = ("size", "capacity")


def parse_methods(text: str) -> list[str]:
    """``pathwise,eoh,random`` as a list; ValueError naming an unknown method."""
    methods = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        raise ValueError(f"unknown method(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(METHODS)}")
    return list(dict.fromkeys(methods))


def run_method(base: PathWiseConfig, method: str, seed: int, model=None) -> dict[str, Any]:
    """One search run; its summary and its test rows."""
    run = Run.create("pathwise", base.model_copy(update={"method": method, "seed": seed, "test": True}))
    report = execute_run(run, model)
    return {"run": run.id, "summary": report.summary, "rows": [r for r in report.rows if r.get("split") == "test"]}


def side_by_side(base: PathWiseConfig, methods: list[str], seeds: list[int], model=None) -> Report:
    """Every method on every seed, then one row per test set with each method's gap and standard error."""
    results = {(m, s): run_method(base, m, s, model) for m in methods for s in seeds}
    first = results[(methods[0], seeds[0])]["rows"]
    baselines = sorted({r["method"] for r in first if not r["method"].startswith("best (")})
    rows = []
    for key in _set_keys(first):
        row: dict[str, Any] = {k: v for k, v in zip(SET_KEYS, key) if v is not None}
        for method in methods:
            found = [_row(results[(method, s)]["rows"], key, f"best ({method})") for s in seeds]
            row[f"{method}_gap"], row[f"{method}_se"] = _mean_and_se(found)
        for baseline in baselines:
            row[f"{baseline}_gap"] = _row(first, key, baseline).get("gap_percent")
        rows.append(row)
    summary = {"problem": base.problem, "budget": base.budget, "seeds": ",".join(map(str, seeds)),
               "policy": results[(methods[0], seeds[0])]["summary"].get("policy"),
               **{f"{m}_best_train_gap": _mean([results[(m, s)]["summary"].get("best_train_gap_percent")
                                                for s in seeds]) for m in methods},
               **{f"{m}_runs": ",".join(results[(m, s)]["run"] for s in seeds) for m in methods}}
    return Report(summary=summary, rows=rows,
                  title=f"{', '.join(methods)} on {base.problem}: test gaps (%), budget {base.budget}")


def _set_keys(rows: list[dict[str, Any]]) -> list[tuple]:
    return list(dict.fromkeys(tuple(r.get(k) for k in SET_KEYS) for r in rows if "gap_percent" in r))


def _row(rows: list[dict[str, Any]], key: tuple, method: str) -> dict[str, Any]:
    return next((r for r in rows if r["method"] == method and tuple(r.get(k) for k in SET_KEYS) == key), {})


def _mean(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 3) if known else None


def _mean_and_se(found: list[dict[str, Any]]) -> tuple[float | None, float | None]:
    gaps = [r["gap_percent"] for r in found if "gap_percent" in r]
    if not gaps:
        return None, None
    if len(found) == 1:
        return gaps[0], found[0].get("se_percent")
    mean = sum(gaps) / len(gaps)
    spread = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1)) if len(gaps) > 1 else float("nan")
    return round(mean, 3), round(spread / math.sqrt(len(gaps)), 3)
