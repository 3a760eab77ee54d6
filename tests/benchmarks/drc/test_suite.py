import json

import pytest

from benchmarks.drc.harness import evaluate_decks
from benchmarks.drc.suite import MANIFEST_PATH, digest, generate_suite, load_suite, select_tasks, suite_text
from sandboxes.errors import UserError


@pytest.fixture(scope="module")
def suite():
    return load_suite()


def test_shipped_suite_size_and_checksum(suite):
    manifest = json.loads(MANIFEST_PATH.read_text())
    assert len(suite) == manifest["tasks"] >= 100
    assert sum(len(task.layouts) for task in suite) == manifest["layouts"]
    assert 1300 <= manifest["layouts"] <= 1700


def test_regeneration_reproduces_the_shipped_file():
    assert digest(suite_text(generate_suite())) == json.loads(MANIFEST_PATH.read_text())["sha256"]


def test_a_tampered_suite_is_refused(tmp_path, monkeypatch):
    import benchmarks.drc.suite as module

    copy = tmp_path / "suite.jsonl"
    copy.write_text(module.SUITE_PATH.read_text().replace("met1", "met9", 1))
    monkeypatch.setattr(module, "SUITE_PATH", copy)
    with pytest.raises(UserError, match="checksum"):
        module.load_suite(copy)


def test_every_task_has_clean_layouts_and_violations_of_each_category(suite):
    for task in suite:
        assert {layout.name for layout in task.layouts}.__len__() == len(task.layouts)
        assert any(not any(layout.labels.values()) for layout in task.layouts), task.spec.id
        for category in task.spec.categories:
            single = [l for l in task.layouts if l.labels[category] and sum(l.labels.values()) == 1]
            assert single, f"{task.spec.id}: no layout violates only {category}"


def test_suite_covers_the_edge_cases(suite):
    notes = " ".join(layout.note for task in suite for layout in task.layouts)
    for case in ["at_limit", "just_below", "touching", "diag45", "hole", "array", "array_below"]:
        assert case in notes


def test_selection(suite):
    assert len(select_tasks(suite, "builtin:7")) == 7
    assert select_tasks(suite, "builtin:7") == select_tasks(suite, "builtin:7")
    assert {t.spec.family for t in select_tasks(suite, "density")} == {"density"}
    with pytest.raises(UserError):
        select_tasks(suite, "no-such-task")
    for count in ("0", "x", "-2"):
        with pytest.raises(UserError, match="positive number"):
            select_tasks(suite, f"builtin:{count}")


@pytest.fixture(scope="module")
def gold_scores(drc_runner):
    """Each task's gold-deck score, scored by KLayout once in this module: the whole suite's test scores only the
    tasks the seeded subset's test has not scored already."""
    known = {}

    def scores(tasks):
        todo = [task for task in tasks if task.spec.id not in known]
        known.update((score.task, score) for score in
                     evaluate_decks(todo, {task.spec.id: task.spec.gold_deck for task in todo}, drc_runner))
        return [known[task.spec.id] for task in tasks]

    return scores


def test_gold_decks_score_100_percent_on_a_seeded_subset(suite, gold_scores):
    scores = gold_scores(select_tasks(suite, "builtin:24"))
    assert len(scores) == 24 and [s.reason for s in scores if not s.success] == []


@pytest.mark.slow
def test_gold_decks_score_100_percent_on_the_whole_suite(suite, gold_scores):
    scores = gold_scores(suite)
    assert [f"{s.task}: {s.reason}" for s in scores if not s.success] == []
