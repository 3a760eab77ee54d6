import json

import pytest

from agents.evokernel.curves import overall_curves, task_curves
from agents.evokernel.report import build_report, learning_curve, summarise


def task(name, latencies, reference=None, compiled=True):
    """A task whose attempts had these latencies (None: not correct)."""
    history = [{"attempt": i + 1, "stage": "draft" if i == 0 else "refine", "status": "correct" if ms else "incorrect",
                "feasible": ms is not None, "latency_ms": ms, "reference_ms": reference, "start_point": None,
                "reward": 0.0} for i, ms in enumerate(latencies)]
    correct = [h for h in history if h["feasible"]]
    best = min(correct, key=lambda h: h["latency_ms"]) if correct else None
    return {"name": name, "op_family": "elementwise", "best_ms": best and best["latency_ms"],
            "first_feasible_ms": correct[0]["latency_ms"] if correct else None, "reference_ms": reference,
            "first_feasible_attempt": correct[0]["attempt"] if correct else None, "compiled_any": compiled,
            "attempts": len(history), "best_attempt": best and best["attempt"],
            "best_extras": {"bottleneck": "MTE2", "roofline_fraction": 0.5, "simulated": True} if correct else {},
            "last_status": "correct", "done_reason": "", "history": history}


TASKS = {"a": task("a", [4.0, 2.0, 1.0, 3.0, 1.5], reference=2.0), "b": task("b", [None, None, 3.0, 2.0, 2.5], reference=1.0),
         "c": task("c", [None] * 5, compiled=False)}


def test_summary_numbers_in_absolute_terms_beside_the_first_draft():
    summary = summarise(TASKS, budget=5)
    assert summary["correctness"] == pytest.approx(2 / 3, abs=1e-4) and summary["compile_rate"] == pytest.approx(2 / 3, abs=1e-4)
    assert summary["median_speedup_over_first_draft"] == pytest.approx(2.75)  # median of 4.0 and 1.5
    assert summary["speedup_over_first_draft_iqr"] == [2.125, 3.375]
    assert summary["median_speedup_over_eager"] == pytest.approx(1.25)  # median of 2.0 and 0.5
    assert summary["median_roofline_fraction"] == 0.5
    assert summary["fast_p"] == {"fast_0": pytest.approx(2 / 3, abs=1e-4), "fast_1": pytest.approx(1 / 3, abs=1e-4),
                                 "fast_1.5": pytest.approx(1 / 3, abs=1e-4), "fast_2": 0.0}


def test_curves_give_correctness_and_the_best_speedup_per_attempt():
    assert learning_curve(TASKS, 4) == pytest.approx([1 / 3, 1 / 3, 2 / 3, 2 / 3])
    a = task_curves(TASKS["a"], 5)
    assert a["speedup_over_eager"] == pytest.approx([0.5, 1.0, 2.0, 2.0, 2.0])  # the best so far never drops
    assert a["speedup_over_first_draft"] == pytest.approx([1.0, 2.0, 4.0, 4.0, 4.0])
    b = task_curves(TASKS["b"], 6)  # a sixth attempt never made: the last value holds
    assert b["correct"] == [0, 0, 1, 1, 1, 1] and b["speedup_over_eager"][:2] == [None, None]
    overall = overall_curves([a, task_curves(TASKS["b"], 5), task_curves(TASKS["c"], 5)], 5)
    assert overall["speedup_over_eager"][3] == pytest.approx((2.0 * 0.5) ** 0.5)  # geomean over the tasks correct
    assert overall["speedup_over_first_draft"][0] == pytest.approx(1.0)


def test_report_has_the_required_keys_a_plot_and_per_task_curves(tmp_path):
    report = build_report(TASKS, budget=5, policy="offline policy: template mutation", method="evokernel",
                          target="npu", totals={"prompt_tokens": 3, "completion_tokens": 4, "cost_usd": 0.0},
                          artifacts=tmp_path, title="t")
    for key in ("policy", "compile_rate", "correctness", "median_speedup_over_first_draft", "median_speedup_over_eager",
                "median_roofline_fraction", "fast_p", "tokens", "speedup_over_eager_curve"):
        assert key in report.summary
    assert report.summary["simulated"] is True and "Simulated on npu" in report.summary["quality"]
    assert report.summary["tokens"] == 7 and (tmp_path / "learning_curve.png").stat().st_size > 1000
    assert report.summary["best"].startswith("2/3 correct, median ")  # what `agent runs list` shows as best
    assert [row["task"] for row in report.rows] == ["a", "b", "c"]
    assert report.rows[0]["speedup_over_eager"] == 2.0 and "speedup_over_eager" in report.columns
    curves = json.loads((tmp_path / "learning_curves.json").read_text())
    assert curves["tasks"]["a"]["speedup_over_first_draft"][-1] == pytest.approx(4.0)
