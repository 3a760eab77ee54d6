import json

import pytest

from benchmarks.drc.mutations import shift_limit
from benchmarks.drc.suite import load_suite, select_tasks

from agents.runtime.run import Run


@pytest.mark.klayout
def test_bench_drc_scores_a_deck_directory(isolated_agent_env, agent_cli):
    tasks = select_tasks(load_suite(), "width_space-00,width_area-00,density-00")
    decks = isolated_agent_env / "decks"
    decks.mkdir()
    (decks / "width_space-00.drc").write_text(tasks[0].spec.gold_deck)
    (decks / "width_area-00.drc").write_text(shift_limit(tasks[1].spec.gold_deck, 0, -0.005))
    (decks / "widht_space-00.drc").write_text(tasks[0].spec.gold_deck)  # a typo: it names no task
    result = agent_cli("bench", "drc", "--tasks", "width_space-00,width_area-00,density-00", "--decks", str(decks),
                       "--sandbox", "local", "--json-out", "out.json")
    assert result.code == 0, result.err
    assert "warning: 1 deck(s) in" in result.err and "match no task and were not scored: widht_space-00.drc" in result.err
    report = json.loads((isolated_agent_env / "out.json").read_text())
    assert report["summary"]["decks_matching_no_task"] == ["widht_space-00.drc"]
    assert Run.open(report["run"]["id"]).read_report().summary["pass@1"] == 1 / 3  # a run directory, like every bench
    rows = {row["task"]: row for row in report["rows"]}
    assert rows["width_space-00"]["success"] is True and rows["width_space-00"]["reason"] == "ok"
    assert rows["width_area-00"]["success"] is False and "labels not matched" in rows["width_area-00"]["reason"]
    assert rows["density-00"]["reason"] == "no deck for this task"
    assert report["summary"]["pass@1"] == 1 / 3


def test_bench_drc_rejects_a_bad_deck_source(isolated_agent_env, agent_cli):
    result = agent_cli("bench", "drc", "--tasks", "builtin:2", "--decks", "nowhere", "--sandbox", "local")
    assert result.code == 2 and "--decks must be 'gold' or a directory" in result.err
    (isolated_agent_env / "typos").mkdir()
    (isolated_agent_env / "typos" / "widht_space-00.drc").write_text("report('x')\n")
    result = agent_cli("bench", "drc", "--tasks", "width_space-00", "--decks", "typos", "--sandbox", "local")
    assert result.code == 2 and "no deck in typos is named after one of the chosen tasks" in result.err
    assert "found widht_space-00.drc" in result.err and not (isolated_agent_env / "runs").exists()
