import json

from agents.runtime.run import Run, list_run_ids

CALC = {"tool_calls": [{"id": "call_1", "name": "calculator", "arguments": {"expression": "17 * 23 + 4"}}]}


def only_run() -> Run:
    ids = list_run_ids()
    assert len(ids) >= 1
    return Run.open(ids[-1])


def test_offline_policy_is_named_in_the_report(agent_cli, tmp_path):
    result = agent_cli("run", "demo", "--json-out", str(tmp_path / "out.json"))
    assert result.code == 0, result.err
    report = json.loads((tmp_path / "out.json").read_text())
    assert report["summary"]["answer"] == 395 and report["summary"]["policy"].startswith("offline policy:")
    assert report["rows"] == [{"question": "What is 17 * 23 + 4?", "expression": "17 * 23 + 4", "answer": 395,
                               "error": None}]
    run = only_run()
    assert report.pop("run") == {"id": run.id, "dir": str(run.dir), "status": "finished"}
    assert json.loads((run.dir / "report.json").read_text()) == report
    assert {"config.json", "events.jsonl", "checkpoints.sqlite", "artifacts", "report.json", "report.md",
            "status.json"} <= {p.name for p in run.dir.iterdir()}


def test_litellm_over_real_http_puts_tokens_and_cost_in_events(agent_cli, fake_openai):
    fake_openai.replies = [CALC]
    result = agent_cli("run", "demo", "--model", "openai/gpt-4o-mini", "--api-base", fake_openai.url)
    assert result.code == 0, result.err
    run = only_run()
    [call] = run.events("model.call")
    assert call["prompt_tokens"] > 0 and call["completion_tokens"] > 0 and call["cost_usd"] > 0
    assert call["cost_known"] and call["tool_calls"] == ["calculator"]
    [tool] = run.events("tool.call")
    assert tool["result"] == 395 and run.read_report().summary["policy"] == "llm: openai/gpt-4o-mini"
    assert [e["node"] for e in run.events("node.end")] == ["plan", "act"]
    assert fake_openai.requests[0]["tools"][0]["function"]["name"] == "calculator"


def normalized(run: Run) -> list[dict]:
    varying = {"ts", "latency_s", "duration_s", "task", "node_task", "pid"}  # task ids are per run
    return [{k: v for k, v in e.items() if k not in varying} for e in run.events()]


def test_a_replayed_recording_gives_identical_events(agent_cli, fake_openai, tmp_path):
    fake_openai.replies = ["17*23", CALC]
    recording = tmp_path / "session.jsonl"
    question = "What is 17 * 23 + 4?"
    first = agent_cli("run", "demo", "--model", "openai/gpt-4o-mini", "--api-base", fake_openai.url,
                      "--record", str(recording), "--question", question)
    assert first.code == 0, first.err
    recorded = only_run()
    assert len(recorded.events("model.parse_error")) == 0 and len(recording.read_text().splitlines()) == 1
    second = agent_cli("run", "demo", "--model", f"replay:{recording}", "--question", question)
    assert second.code == 0, second.err
    replayed = only_run()
    assert replayed.id != recorded.id
    assert normalized(replayed) == normalized(recorded)
    assert len(fake_openai.requests) == 1, "the replay made no HTTP call"


def test_budget_of_zero_calls_stops_cleanly(agent_cli, fake_openai):
    result = agent_cli("run", "demo", "--model", "openai/gpt-4o-mini", "--api-base", fake_openai.url,
                       "--max-calls", "0")
    assert result.code == 3, result.err  # stopped by its budget
    run = only_run()
    assert run.status == "stopped" and run.read_report().summary["status"] == "stopped"
    assert fake_openai.requests == []


def test_config_file_and_environment_fill_the_demo(agent_cli, tmp_path, monkeypatch):
    (tmp_path / "agentkiln.toml").write_text('[demo]\nquestion = "What is 2 + 2?"\n')
    assert agent_cli("run", "demo").code == 0
    assert only_run().read_report().summary["answer"] == 4
    monkeypatch.setenv("AGENT_DEMO_QUESTION", "What is 3 * 3?")
    assert agent_cli("run", "demo").code == 0
    assert only_run().read_report().summary["answer"] == 9
    assert agent_cli("run", "demo", "--question", "What is 1 + 1?").code == 0
    assert only_run().read_report().summary["answer"] == 2
