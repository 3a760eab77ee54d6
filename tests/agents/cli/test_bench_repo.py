import json
from pathlib import Path

import pytest

from agents.runtime.run import Run, list_run_ids

LOCAGENT = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "locagent"
OUTPUTS = LOCAGENT / "loc_outputs_swebench_lite_claude35.jsonl"


def summary_of(path):
    return json.loads(Path(path).read_text())["summary"]


def test_predictions_file_reproduces_locagent_through_the_cli(agent_cli, tmp_path):
    if not OUTPUTS.is_file():
        pytest.skip(f"LocAgent fixture not found at {LOCAGENT}")
    result = agent_cli("bench", "repo", "--instances", str(OUTPUTS), "--localizer", f"predictions:{OUTPUTS}",
                       "--exclude", str(LOCAGENT / "excluded_instances.txt"), "--json-out", str(tmp_path / "r.json"),
                       "--export", str(tmp_path / "swebench.jsonl"))
    assert result.code == 0, result.err
    summary = summary_of(tmp_path / "r.json")
    assert (summary["file.acc@1"], summary["file.acc@3"], summary["file.acc@5"]) == (77.74, 91.97, 94.16)
    assert summary["instances"] == 274 and summary["policy"].startswith("external predictions")
    exported = [json.loads(line) for line in (tmp_path / "swebench.jsonl").read_text().splitlines()]
    assert len(exported) == 274 and {"instance_id", "model_name_or_path", "model_patch"} <= set(exported[0])


def test_demo_offline_policy_and_bm25_baseline(agent_cli, tmp_path):
    assert agent_cli("bench", "repo", "--json-out", str(tmp_path / "rpg.json"), "--workers", "2").code == 0
    rpg = summary_of(tmp_path / "rpg.json")
    assert rpg["policy"].startswith("offline policy: BM25") and rpg["file.acc@3"] == 100.0
    assert rpg["file.acc@1"] >= 66.67  # shop-2's fix hides behind a call: second or third with the default walk
    assert agent_cli("bench", "repo", "--localizer", "bm25", "--json-out", str(tmp_path / "bm25.json")).code == 0
    assert summary_of(tmp_path / "bm25.json")["policy"].startswith("baseline: BM25")
    run = Run.open(list_run_ids()[0])
    assert (run.artifacts / "outcomes.jsonl").is_file() and (run.artifacts / "predictions.jsonl").is_file()


def test_scripted_agent_in_the_benchmark(agent_cli, tmp_path):
    script = [{"tool_calls": [{"name": "search_node", "arguments": {"query": "discount"}}]},
              {"tool_calls": [{"name": "submit_locations", "arguments": {"locations": [
                  {"file": "shop/pricing.py", "entity": "shop/pricing.py:apply_discount"}]}}]}]
    (tmp_path / "script.json").write_text(json.dumps(script))
    result = agent_cli("bench", "repo", "--limit", "1", "--model", f"scripted:{tmp_path / 'script.json'}",
                       "--json-out", str(tmp_path / "r.json"))
    assert result.code == 0, result.err
    summary = summary_of(tmp_path / "r.json")
    assert summary["policy"].startswith("llm: scripted") and summary["function.acc@1"] == 100.0
    run = Run.open(list_run_ids()[-1])
    assert len(run.events("model.call")) == 2 and run.events("tool.call")[0]["tool"] == "search_node"


def test_budget_stop_then_resume_keeps_finished_instances(agent_cli, tmp_path):
    submit = {"tool_calls": [{"name": "submit_locations", "arguments": {"locations": [{"file": "shop/models.py"}]}}]}
    (tmp_path / "script.json").write_text(json.dumps([submit] * 5))
    result = agent_cli("bench", "repo", "--limit", "2", "--model", f"scripted:{tmp_path / 'script.json'}",
                       "--max-calls", "1")
    assert result.code == 3, result.err  # stopped by its budget
    run = Run.open(list_run_ids()[-1])
    assert run.read_report().summary["status"] == "stopped"
    assert agent_cli("runs", "resume", run.id, "--max-calls", "5", "--json-out", str(tmp_path / "r.json")).code == 0
    summary = summary_of(tmp_path / "r.json")
    assert summary["scored"] == 2 and summary["file.acc@1"] == 50.0
    outcomes = [json.loads(line)["instance_id"] for line in (run.artifacts / "outcomes.jsonl").read_text().splitlines()]
    assert outcomes == ["demo__shop-1", "demo__shop-2"]  # the first instance was not redone
    assert len(Run.open(run.id).events("model.call")) == 2


def test_bad_input_is_one_line_and_exit_2(agent_cli, tmp_path):
    result = agent_cli("bench", "repo", "--localizer", "nope")
    assert result.code == 2 and "unknown localizer" in result.err
    result = agent_cli("bench", "repo", "--instances", str(tmp_path / "missing.jsonl"))
    assert result.code == 2 and "no such file" in result.err


def test_a_model_localiser_is_not_sent_to_a_cluster(agent_cli, tmp_path):
    (tmp_path / "script.json").write_text("[]")
    result = agent_cli("bench", "repo", "--model", f"scripted:{tmp_path / 'script.json'}", "--executor", "ray")
    assert result.code == 2 and "its calls stay here" in result.err
    assert list_run_ids() == []


def test_the_demo_scores_the_same_with_the_local_executor_named(agent_cli, tmp_path):
    for name, flags in (("default", []), ("local", ["--executor", "local"])):
        assert agent_cli("bench", "repo", *flags, "--json-out", str(tmp_path / f"{name}.json")).code == 0
    assert {k: v for k, v in summary_of(tmp_path / "local.json").items() if "second" not in k} == \
        {k: v for k, v in summary_of(tmp_path / "default.json").items() if "second" not in k}
