import math

from benchmarks.repo.metrics import acc_at_k, any_hit_at_k, mean_percent, ndcg_at_k, recall_at_k, score


def test_locagent_accuracy_caps_the_gold_at_k():
    assert acc_at_k(["a", "b", "c"], ["a", "c"], 3) == 1.0
    assert acc_at_k(["a", "b", "c"], ["a", "c"], 2) == 0.0  # c is not in the top 2
    assert acc_at_k(["a", "b"], ["a", "c"], 1) == 1.0  # only the first gold item counts at k=1
    assert acc_at_k(["a", "a", "c"], ["a", "c"], 2) == 1.0  # duplicates do not use up ranks


def test_any_hit_recall_and_ndcg():
    assert any_hit_at_k(["x", "c"], ["a", "c"], 2) == 1.0 and any_hit_at_k(["x"], ["a"], 5) == 0.0
    assert recall_at_k(["a", "x", "c"], ["a", "c", "d", "e"], 3) == 0.5
    assert ndcg_at_k(["a"], ["a"], 5) == 1.0
    assert math.isclose(ndcg_at_k(["x", "a"], ["a"], 2), 1 / math.log2(3))


def test_score_and_mean():
    assert score(["a"], []) is None
    assert set(score(["a"], ["a"], (1, 5))) == {f"{m}@{k}" for m in ("acc", "acc_any", "recall", "ndcg") for k in (1, 5)}
    assert mean_percent([1, 0, 0]) == 33.33 and math.isnan(mean_percent([]))
