import json

import pytest

from benchmarks.drc.mutations import shift_limit
from benchmarks.drc.suite import load_suite, select_tasks


@pytest.mark.klayout
def test_bench_drc_scores_a_deck_directory(isolated_agent_env, agent_cli):
    tasks = select_tasks(load_suite(), "width_space-00,width_area-00,density-00")
    decks = isolated_agent_env / "decks"
    decks.mkdir()
    (decks / "width_space-00.drc").write_text(tasks[0].spec.gold_deck)
    (decks / "width_area-00.drc").write_text(shift_limit(tasks[1].spec.gold_deck, 0, -0.005))
    result = agent_cli("bench", "drc", "--tasks", "width_space-00,width_area-00,density-00", "--decks", str(decks),
                       "--sandbox", "local", "--json-out", "out.json")
    assert result.code == 0, result.err
    report = json.loads((isolated_agent_env / "out.json").read_text())
    rows = {row["task"]: row for row in report["rows"]}
    assert rows["width_space-00"]["success"] is True and rows["width_space-00"]["reason"] == "ok"
    assert rows["width_area-00"]["success"] is False and "labels not matched" in rows["width_area-00"]["reason"]
    assert rows["density-00"]["reason"] == "no deck for this task"
    assert report["summary"]["pass@1"] == 1 / 3


def test_bench_drc_rejects_a_bad_deck_source(isolated_agent_env, agent_cli):
    result = agent_cli("bench", "drc", "--tasks", "builtin:2", "--decks", "nowhere", "--sandbox", "local")
    assert result.code == 2 and "--decks must be 'gold' or a directory" in result.err
