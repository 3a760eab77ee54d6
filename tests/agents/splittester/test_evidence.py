import random

from agents.splittester import selectors
from agents.splittester.evidence import Evidence, distinct_members
from agents.splittester.testgen import GeneratedTest
from tools.drc.runner import LayoutVerdict


def verdict(*violated):
    return LayoutVerdict("ok", counts={c: 1 for c in violated}, declared=["a", "b"])


ERROR = LayoutVerdict("error", error="boom")


def evidence() -> Evidence:
    """Tests expect: t0 clean, t1 violates a, t2 violates b. Candidates: 0,1 right; 2 misses b; 3 errors; 4 = 2."""
    found = Evidence(["right", "right", "weak", "broken", "weak2"], ["a", "b"])
    found.tests = [GeneratedTest("t0", b"", {"a": False, "b": False}), GeneratedTest("t1", b"", {"a": True, "b": False}),
                   GeneratedTest("t2", b"", {"a": False, "b": True})]
    found.verdicts = [[verdict(), verdict("a"), verdict("b")], [verdict(), verdict("a"), verdict("b")],
                      [verdict(), verdict("a"), verdict()], [ERROR, ERROR, ERROR],
                      [verdict(), verdict("a"), verdict()]]
    return found


def test_clusters_scores_and_disagreements():
    found = evidence()
    assert found.clusters() == [[0, 1], [2, 4]]
    assert found.agreement(0) == 1.0 and found.agreement(2) == 5 / 6 and found.agreement(3) == 0.0
    assert found.ranked_clusters()[0] == [0, 1]
    assert found.disagreeing_tests([0, 2]) == [2]
    assert distinct_members(found, [0, 1, 2], 3) == [0, 2]
    assert not found.valid(3) and found.passes(0, 2) and not found.passes(2, 2)


def test_baseline_selectors():
    found = evidence()
    assert selectors.best_score_ties(found) == [0, 1]
    assert selectors.select_best_score(found, random.Random(0)) in (0, 1)
    assert selectors.select_codet(found) == 0
    assert selectors.select_mbr(found) in (0, 1, 2, 4)
    assert 0 <= selectors.select_random(found, random.Random(1)) < 5


def test_mbr_prefers_the_majority_behaviour():
    found = evidence()
    found.decks.append("weak3")
    found.verdicts.append([verdict(), verdict("a"), verdict()])
    assert selectors.select_mbr(found) == 2
