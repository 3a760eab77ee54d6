import json
import os
from pathlib import Path

import pytest

from benchmarks.resolve.generated import adversarial_predictions, build_generated
from benchmarks.resolve.instances import write_predictions

from agents.runtime.run import Run, list_run_ids


@pytest.fixture(scope="module")
def env_dir(tmp_path_factory):
    """One environment cache for the module: the first evaluation builds, the later ones reuse."""
    return str(tmp_path_factory.mktemp("resolve-envs"))


def bench(agent_cli, tmp_path, env_dir, *args):
    result = agent_cli("bench", "resolve", "--sandbox", "local", "--env-dir", env_dir, "--workers", "2",
                       "--json-out", str(tmp_path / "r.json"), *args)
    assert result.code == 0, result.err
    report = json.loads((tmp_path / "r.json").read_text())
    return report, Run.open(report["run"]["id"])


def swebench_reads_back(run: Run, instances: list[dict], predictions: list[dict], tmp_path) -> dict:
    """SWE-bench's own make_run_report over the run's logs (it reads logs/run_evaluation from the cwd)."""
    from swebench.harness.reporting import make_run_report

    here = os.getcwd()
    os.chdir(run.artifacts)
    try:
        path = make_run_report({p["instance_id"]: p for p in predictions}, instances, run.id,
                               report_dir=str(tmp_path / "swebench"))
    finally:
        os.chdir(here)
    return json.loads(Path(path).read_text())


def ours(report: dict) -> dict:
    return json.loads(Path(report["summary"]["swebench_report"]).read_text())


def test_gold_resolves_every_instance_and_swebench_reads_the_report_back(agent_cli, tmp_path, env_dir):
    report, run = bench(agent_cli, tmp_path, env_dir, "--predictions", "gold")
    summary = report["summary"]
    assert (summary["instances"], summary["resolved"], summary["resolved_pct"]) == (11, 11, 100.0)
    assert summary["envs_built"] == 2 and summary["envs_reused"] == 9  # one environment per repository+version
    assert all(row["fail_to_pass"] == "1/1" and row["status"] == "resolved" for row in report["rows"])
    folder = run.artifacts / "logs" / "run_evaluation" / run.id / "gold" / "shapes-3"
    assert {"patch.diff", "eval.sh", "test_output.txt", "run_instance.log", "report.json"} <= {
        p.name for p in folder.iterdir()}
    rows = [json.loads(line) for line in (run.artifacts / "generated" / "instances.jsonl").read_text().splitlines()]
    predictions = [json.loads(line) for line in (run.artifacts / "predictions.jsonl").read_text().splitlines()]
    theirs = swebench_reads_back(run, rows, predictions, tmp_path)
    mine = ours(report)
    assert mine.pop("patch_apply_failed_ids") == []
    assert theirs == mine and theirs["resolved_instances"] == 11


def test_empty_patches_resolve_nothing(agent_cli, tmp_path, env_dir):
    report, _ = bench(agent_cli, tmp_path, env_dir, "--predictions", "empty")
    summary = report["summary"]
    assert (summary["resolved"], summary["resolved_pct"], summary["empty_patch"]) == (0, 0.0, 11)
    assert ours(report)["empty_patch_ids"] == sorted(row["instance_id"] for row in report["rows"])


def test_a_patch_breaking_pass_to_pass_is_unresolved_and_a_stale_one_does_not_apply(agent_cli, tmp_path, env_dir):
    generated = build_generated(tmp_path / "bench")
    predictions = adversarial_predictions(generated)
    path = write_predictions(list(predictions.values()), tmp_path / "preds.jsonl")
    report, run = bench(agent_cli, tmp_path, env_dir, "--instances", str(generated.instances), "--predictions",
                        str(path), "--repos", str(generated.mirrors), "--specs", str(generated.specs))
    rows = {row["instance_id"]: row for row in report["rows"]}
    assert rows["textkit-1"]["status"] == "unresolved" and rows["textkit-1"]["fail_to_pass"] == "1/1"
    assert rows["textkit-1"]["pass_to_pass"] == "2/3"
    assert rows["shapes-1"]["status"] == "patch_failed" and "does not apply" in rows["shapes-1"]["reason"]
    mine = ours(report)
    assert mine["patch_apply_failed_ids"] == ["shapes-1"] and mine["error_ids"] == ["shapes-1"]
    assert mine["unresolved_ids"] == ["textkit-1"] and len(mine["incomplete_ids"]) == 9
    log = run.artifacts / "logs" / "run_evaluation" / run.id / "adversarial" / "shapes-1" / "run_instance.log"
    assert ">>>>> Patch Apply Failed" in log.read_text()
    mine.pop("patch_apply_failed_ids")
    assert swebench_reads_back(run, generated.rows, [p.to_row() for p in predictions.values()], tmp_path) == mine


def test_bad_input_is_one_line_and_exit_2(agent_cli, tmp_path, monkeypatch):
    result = agent_cli("bench", "resolve")
    assert result.code == 2 and "exactly one of --predictions" in result.err
    result = agent_cli("bench", "resolve", "--agent", "repair")
    assert result.code == 2 and "no offline policy" in result.err
    result = agent_cli("bench", "resolve", "--predictions", str(tmp_path / "missing.jsonl"))
    assert result.code == 2 and "no such predictions file" in result.err
    monkeypatch.setattr("agents.repair.swebench_backend.DOCKER_HUB", ("127.0.0.1", 9))
    result = agent_cli("bench", "resolve", "--predictions", "gold", "--backend", "swebench")
    assert result.code == 2 and "needs Docker Hub" in result.err
    result = agent_cli("bench", "resolve-throughput", "--workers", "1,two")
    assert result.code == 2 and "comma-separated counts" in result.err
    assert list_run_ids() == []  # refused before a run directory was made


def test_repair_agent_with_a_scripted_model_resolves_an_instance(agent_cli, tmp_path, env_dir):
    from benchmarks.resolve import gen_textkit

    bug = gen_textkit.BUGS[0]
    calls = [("search_node", {"query": "slugify separators"}), ("read_file", {"path": bug.path}),
             ("edit_file", {"path": bug.path, "old": bug.buggy, "new": bug.fixed}),
             ("run_tests", {"paths": [bug.test_path]}), ("submit", {"summary": "one separator per run"})]
    (tmp_path / "script.json").write_text(json.dumps([{"tool_calls": [{"name": n, "arguments": a}]} for n, a in calls]))
    report, run = bench(agent_cli, tmp_path, env_dir, "--agent", "repair", "--id", bug.instance_id,
                        "--model", f"scripted:{tmp_path / 'script.json'}")
    summary = report["summary"]
    assert (summary["instances"], summary["resolved"], summary["resolved_pct"]) == (1, 1, 100.0)
    child = Run.open(run.events("resolve.repair")[0]["run_id"])
    trajectory = json.loads((child.artifacts / "trajectory.json").read_text())
    tests = json.loads(next(m["content"] for m in trajectory if m.get("name") == "run_tests"))
    assert tests["exit_code"] == 0  # the agent's own test run, in the instance's environment
    prediction = json.loads((run.artifacts / "predictions.jsonl").read_text())
    assert prediction["model_name_or_path"] == "agentkiln-repair" and bug.fixed in prediction["model_patch"]


def test_an_external_agent_command_leaves_a_diff_that_is_evaluated(agent_cli, tmp_path, env_dir):
    command = ("grep -q 'single separator' \"$AGENT_ISSUE_FILE\" && "
               "sed -i 's/\\[^a-z0-9\\]\"/[^a-z0-9]+\"/' textkit/slug.py")
    report, run = bench(agent_cli, tmp_path, env_dir, "--agent-cmd", command, "--id", "textkit-1", "--id", "shapes-2")
    rows = {row["instance_id"]: row["status"] for row in report["rows"]}
    assert rows == {"textkit-1": "resolved", "shapes-2": "empty_patch"}  # it knows only the first bug
    assert (run.artifacts / "agent-cmd" / "textkit-1.log").is_file()


def test_a_budget_stop_while_repairing_resumes_with_only_the_missing_instances(agent_cli, tmp_path, env_dir):
    (tmp_path / "script.json").write_text(json.dumps([{"tool_calls": [{"name": "submit", "arguments": {}}]}]))
    result = agent_cli("bench", "resolve", "--agent", "repair", "--model", f"scripted:{tmp_path / 'script.json'}",
                       "--max-calls", "1", "--id", "textkit-1", "--id", "shapes-2", "--env-dir", env_dir,
                       "--sandbox", "local")
    assert result.code == 3, result.err  # stopped by its budget in the second instance
    run = next(Run.open(i) for i in list_run_ids() if "bench-resolve" in i)
    made = run.artifacts / "made.jsonl"
    assert [json.loads(line)["instance_id"] for line in made.read_text().splitlines()] == ["textkit-1"]
    assert agent_cli("runs", "resume", run.id, "--max-calls", "5").code == 0
    assert [json.loads(line)["instance_id"] for line in made.read_text().splitlines()] == ["textkit-1", "shapes-2"]
    repaired = [e["instance_id"] for e in Run.open(run.id).events("resolve.repair")]
    assert repaired == ["textkit-1", "shapes-2", "shapes-2"]  # textkit-1 was not repaired again
    assert Run.open(run.id).read_report().summary["empty_patch"] == 2
