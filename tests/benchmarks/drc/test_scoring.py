import pytest

from benchmarks.drc.scoring import f1_score, score_task, summarize
from benchmarks.drc.spec import DrcTask, LabelledLayout, TaskSpec
from tools.drc.runner import LayoutVerdict

SPEC = TaskSpec(id="t", title="t", description="d", layers=[{"name": "met1", "layer": 68, "datatype": 20}],
                rules=[{"category": "a", "description": ""}, {"category": "b", "description": ""}], gold_deck="")
TASK = DrcTask(spec=SPEC, layouts=[LabelledLayout.from_gds(f"l{i}", b"x", labels)
                                   for i, labels in enumerate([{"a": False, "b": False}, {"a": True, "b": False},
                                                               {"a": False, "b": True}])])


def ok(**counts):
    return LayoutVerdict("ok", counts=counts, declared=["a", "b"])


def test_f1():
    assert f1_score(0, 0, 0) == 1.0
    assert f1_score(1, 1, 0) == pytest.approx(2 / 3)


def test_exact_match_succeeds():
    assert score_task(TASK, [ok(), ok(a=2), ok(b=1)]).success


def test_one_missed_label_fails_with_f1():
    score = score_task(TASK, [ok(), ok(), ok(b=1)])
    assert not score.success and "a (F1 0.00)" in score.reason and score.f1["b"] == 1.0


def test_an_extra_category_fails_even_with_all_labels_right():
    verdicts = [ok(), ok(a=1), LayoutVerdict("ok", counts={"b": 1, "c": 1}, declared=["a", "b", "c"])]
    assert score_task(TASK, verdicts).reason == "unknown categories: c"


def test_an_error_on_one_layout_fails_and_lowers_compile_rate():
    score = score_task(TASK, [ok(), LayoutVerdict("error", error="NoMethodError"), ok(b=1)])
    assert not score.success and score.compile_rate == pytest.approx(2 / 3) and "NoMethodError" in score.reason
    summary = summarize([score, score_task(TASK, [ok(), ok(a=1), ok(b=1)])])
    assert summary == {"tasks": 2, "pass@1": 0.5, "error_rate": 0.5, "compile_rate": pytest.approx(5 / 6)}
