import pytest

from benchmarks.drc.harness import load_decks, speed_report
from benchmarks.drc.suite import load_suite, select_tasks
from sandboxes.errors import UserError


@pytest.fixture(scope="module")
def tasks():
    return select_tasks(load_suite(), "width_space-00,width_area-00")


def test_load_decks(tasks, tmp_path):
    assert load_decks(tasks, "gold")["width_space-00"] == tasks[0].spec.gold_deck
    (tmp_path / "width_area-00.drc").write_text("deck")
    assert load_decks(tasks, str(tmp_path)) == {"width_space-00": None, "width_area-00": "deck"}
    with pytest.raises(UserError):
        load_decks(tasks, str(tmp_path / "missing"))


def test_speed_report_measures_both_modes(tasks, drc_runner):
    report = speed_report(tasks[0], drc_runner, layouts=6, single_layouts=1)
    assert [row["layouts"] for row in report.rows] == [6, 1]
    assert report.summary["batch_layouts_per_cpu_s"] > 0 and report.summary["speedup_cpu"] > 0
