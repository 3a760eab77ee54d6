"""Sandboxed Python and shell tools on the real local sandbox: one persistent session, limits, safe paths."""

from __future__ import annotations

import pytest

from tools.sandbox import SandboxWorkspace, make_sandbox_tools


@pytest.fixture
def sandbox_tools():
    workspace = SandboxWorkspace("local")
    yield {tool.name: tool for tool in make_sandbox_tools(workspace)}
    workspace.close()


def test_files_persist_between_calls_in_one_session(sandbox_tools):
    written = sandbox_tools["sandbox_write_file"].invoke({"path": "data/n.txt", "content": "41"})
    assert written == {"written": "data/n.txt", "bytes": 2, "ok": True}
    ran = sandbox_tools["python_exec"].invoke({"code": "print(int(open('data/n.txt').read()) + 1)"})
    assert ran["exit_code"] == 0 and ran["stdout"] == "42\n"
    shell = sandbox_tools["shell_exec"].invoke({"command": "cat data/n.txt; exit 3"})
    assert shell["exit_code"] == 3 and shell["stdout"] == "41"


def test_a_shell_command_longer_than_one_argument_runs_from_a_file(sandbox_tools):
    body = "x" * 200_000
    result = sandbox_tools["shell_exec"].invoke({"command": f"cat > big.txt <<'EOF'\n{body}\nEOF\nwc -c < big.txt"})
    assert result["exit_code"] == 0 and result["stdout"].strip() == "200001", result


def test_errors_and_timeouts_come_back_as_results(sandbox_tools):
    failed = sandbox_tools["python_exec"].invoke({"code": "raise SystemExit('boom')"})
    assert failed["exit_code"] == 1 and "boom" in failed["stderr"]
    slow = sandbox_tools["shell_exec"].invoke({"command": "sleep 30", "timeout_s": 1})
    assert slow["stopped"] == ["timed_out"]


def test_paths_must_stay_inside_the_work_directory(sandbox_tools):
    with pytest.raises(ValueError, match="stay inside"):
        sandbox_tools["sandbox_write_file"].invoke({"path": "../escape.txt", "content": "x"})


def test_every_tool_declares_its_effects(sandbox_tools):
    assert all(tool.sandboxed and tool.needs_approval and tool.group == "sandbox"
               for tool in sandbox_tools.values())


def test_a_sandbox_failure_reaches_the_model_with_its_reason_and_notes():
    from sandboxes.base import RunResult
    from tools.sandbox.exec_tools import describe

    failed = RunResult(returncode=125, stdout="", stderr="", sandbox_error="sandbox container lost",
                       notes=["link.txt: a symbolic link, not followed"])
    assert describe(failed) == {"exit_code": 125, "stdout": "", "stderr": "", "sandbox_error": "sandbox container lost",
                                "notes": ["link.txt: a symbolic link, not followed"]}
    assert "sandbox_error" not in describe(RunResult(returncode=0, stdout="ok", stderr=""))
