import json

import pytest

from benchmarks.drc.suite import load_suite, select_tasks


@pytest.mark.klayout
def test_run_splittester_with_a_scripted_model(isolated_agent_env, agent_cli):
    task = select_tasks(load_suite(), "width_space-00")[0]
    deck = f"```ruby\n{task.spec.gold_deck}```"
    script = ('```python\nimport json, pathlib\nimport klayout.db as db\nout = pathlib.Path("tests"); out.mkdir()\n'
              'layout = db.Layout(); top = layout.create_cell("TOP")\n'
              'top.shapes(layout.layer(68, 20)).insert(db.Box(0, 0, 100, 1000))\nlayout.write(str(out / "w.gds"))\n'
              '(out / "expected.json").write_text(json.dumps({"w.gds": {"m1.1": True, "m1.2": False}}))\n```')
    replies = isolated_agent_env / "replies.json"
    replies.write_text(json.dumps([deck, deck, script, "ANSWER: 1"]))
    result = agent_cli("run", "splittester", "--tasks", "width_space-00", "--n", "2", "--sandbox", "local",
                       "--model", f"scripted:{replies}", "--json-out", "st.json")
    assert result.code == 0, result.err
    report = json.loads((isolated_agent_env / "st.json").read_text())
    assert report["summary"]["policy"].startswith("model: scripted") and report["summary"]["pass@1"] == 1.0
    assert report["summary"]["bon_splittester"] == 1.0 and report["summary"]["bon_llm_judge_no_exec"] == 1.0
    assert report["rows"][0]["tests"] == 1 and report["summary"]["tokens"] > 0
    run_id = result.out.split("run directory: ")[1].split()[0].rsplit("/", 1)[1]
    assert agent_cli("runs", "show", run_id).code == 0
    from agents.runtime.registry import get_agent

    assert get_agent("splittester")  # registered when the CLI loads, so `agent runs resume` can continue it
