import pytest

from agents.evokernel.report import build_report, learning_curve, summarise


def task(name, first, best, first_attempt, reference=None, attempts=5, compiled=True):
    return {"name": name, "op_family": "elementwise", "best_ms": best, "first_feasible_ms": first,
            "reference_ms": reference, "first_feasible_attempt": first_attempt, "compiled_any": compiled,
            "attempts": attempts, "best_extras": {"bottleneck": "MTE2", "roofline_fraction": 0.5, "simulated": True},
            "last_status": "correct", "done_reason": "", "history": [{"feasible": True}] * attempts}


TASKS = {"a": task("a", 4.0, 1.0, 1, reference=2.0), "b": task("b", 3.0, 2.0, 3, reference=1.0),
         "c": task("c", None, None, None, compiled=False)}


def test_summary_numbers():
    summary = summarise(TASKS, budget=5)
    assert summary["correctness"] == pytest.approx(2 / 3, abs=1e-4) and summary["compile_rate"] == pytest.approx(2 / 3, abs=1e-4)
    assert summary["median_speedup_over_first_draft"] == pytest.approx(2.75)  # median of 4.0 and 1.5
    assert summary["speedup_over_first_draft_iqr"] == [2.125, 3.375]
    assert summary["fast_p"] == {"fast_0": pytest.approx(2 / 3, abs=1e-4), "fast_1": pytest.approx(1 / 3, abs=1e-4),
                                 "fast_1.5": pytest.approx(1 / 3, abs=1e-4), "fast_2": 0.0}


def test_learning_curve_counts_tasks_correct_by_each_attempt():
    assert learning_curve(TASKS, 4) == pytest.approx([1 / 3, 1 / 3, 2 / 3, 2 / 3])


def test_report_has_the_required_keys_and_a_plot(tmp_path):
    report = build_report(TASKS, budget=5, policy="offline policy: template mutation", method="evokernel",
                          target="npu", totals={"prompt_tokens": 3, "completion_tokens": 4, "cost_usd": 0.0},
                          artifacts=tmp_path, title="t")
    for key in ("policy", "compile_rate", "correctness", "median_speedup_over_first_draft", "fast_p", "tokens"):
        assert key in report.summary
    assert report.summary["tokens"] == 7 and (tmp_path / "learning_curve.png").stat().st_size > 1000
    assert [row["task"] for row in report.rows] == ["a", "b", "c"]
