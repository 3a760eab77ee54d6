import json
from pathlib import Path

import pytest

from benchmarks.resolve import gen_textkit
from benchmarks.resolve.generated import build_generated
from benchmarks.resolve.tree import export_tree

from agents.runtime.run import Run, list_run_ids

BUG = gen_textkit.BUGS[0]


def fix_script(*, with_tests: bool) -> list[dict]:
    """Localise with the RPG tools, read, make the gold edit, (run the tests,) submit."""
    calls = [("search_node", {"query": "slugify repeated separators"}), ("read_file", {"path": BUG.path}),
             ("edit_file", {"path": BUG.path, "old": BUG.buggy, "new": BUG.fixed})]
    calls += [("run_tests", {"paths": [BUG.test_path]})] * with_tests + [("submit", {"summary": "collapse runs"})]
    return [{"tool_calls": [{"name": name, "arguments": arguments}]} for name, arguments in calls]


@pytest.fixture
def checkout(tmp_path):
    """textkit at the base commit of its first instance, and that instance's issue."""
    generated = build_generated(tmp_path / "bench")
    row = next(r for r in generated.rows if r["instance_id"] == BUG.instance_id)
    export_tree(generated.mirrors / "textkit" / ".git", row["base_commit"], tmp_path / "repo")
    (tmp_path / "issue.md").write_text(row["problem_statement"])
    return tmp_path / "repo"


def repair(agent_cli, tmp_path, script, *args):
    (tmp_path / "script.json").write_text(json.dumps(script))
    return agent_cli("run", "repair", "--repo", str(tmp_path / "repo"), "--issue", f"@{tmp_path / 'issue.md'}",
                     "--model", f"scripted:{tmp_path / 'script.json'}", "--sandbox", "local",
                     "--json-out", str(tmp_path / "r.json"), *args)


def test_scripted_model_localises_edits_and_submits_a_diff(agent_cli, tmp_path, checkout):
    """(The sandboxed test run of the loop is exercised under `agent bench resolve --agent repair`.)"""
    result = repair(agent_cli, tmp_path, fix_script(with_tests=False), "--yes")
    assert result.code == 0, result.err
    summary = json.loads((tmp_path / "r.json").read_text())["summary"]
    assert summary["ended"] == "submitted" and summary["files_changed"] == 1
    run = Run.open(list_run_ids()[-1])
    patch = (run.artifacts / "patch.diff").read_text()
    assert f"-    cleaned = {BUG.buggy}" in patch and f"+    cleaned = {BUG.fixed}" in patch
    assert BUG.buggy in (checkout / BUG.path).read_text()  # the repository itself is untouched
    trajectory = json.loads((run.artifacts / "trajectory.json").read_text())
    assert "def slugify" in next(m["content"] for m in trajectory if m.get("name") == "read_file")
    assert [e["tool"] for e in run.events("tool.call")] == ["search_node", "read_file", "edit_file", "submit"]


def resume_with_submit(agent_cli, tmp_path, run, answer):
    """Resume the paused run with ``answer``; the rest of the script (a fresh scripted model) submits."""
    (tmp_path / "rest.json").write_text(json.dumps(fix_script(with_tests=False)[-1:]))
    return agent_cli("runs", "resume", run.id, "--answer", answer, "--model", f"scripted:{tmp_path / 'rest.json'}")


def test_edits_pause_for_approval_without_yes_and_resume_when_approved(agent_cli, tmp_path, checkout):
    result = repair(agent_cli, tmp_path, fix_script(with_tests=False))
    run = Run.open(list_run_ids()[-1])
    assert run.status == "paused" and result.code != 0
    assert run.events("graph.paused")[-1]["interrupts"][0]["name"] == "edit_file"
    assert not (run.artifacts / "patch.diff").exists()
    result = resume_with_submit(agent_cli, tmp_path, run, '{"action": "approve"}')
    assert result.code == 0, result.err
    assert f"+    cleaned = {BUG.fixed}" in (run.artifacts / "patch.diff").read_text()


def test_a_rejected_edit_is_not_made(agent_cli, tmp_path, checkout):
    repair(agent_cli, tmp_path, fix_script(with_tests=False))
    run = Run.open(list_run_ids()[-1])
    assert resume_with_submit(agent_cli, tmp_path, run, '{"action": "reject", "reason": "no"}').code == 0
    assert (run.artifacts / "patch.diff").read_text() == ""
    trajectory = json.loads((run.artifacts / "trajectory.json").read_text())
    assert "rejected" in next(m["content"] for m in trajectory if m.get("name") == "edit_file")


def test_no_model_means_no_offline_repair_policy(agent_cli, tmp_path, checkout):
    result = agent_cli("run", "repair", "--repo", str(checkout), "--issue", "x", "--model", "offline")
    assert result.code == 2 and "no offline policy" in result.err
    result = agent_cli("run", "repair", "--repo", str(tmp_path / "nope"), "--issue", "@" + str(tmp_path / "none.md"))
    assert result.code == 2 and "no such file" in result.err
    assert list_run_ids() == []
