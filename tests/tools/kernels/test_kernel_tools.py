"""Kernel tools over the real harness: task listing, a checked CPU solution, a simulated NPU profile."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandboxes.errors import UserError
from tools.kernels import make_kernel_tools

SOLUTIONS = Path(__file__).resolve().parents[3] / "benchmarks" / "kernels" / "solutions"


@pytest.fixture(scope="module")
def kernel_tools():
    return {tool.name: tool for tool in make_kernel_tools()}


def test_list_and_show_tasks(kernel_tools):
    listed = kernel_tools["kernel_list_tasks"].invoke({"level": "L1"})
    assert {"task": "L1/relu", "description": listed[[t["task"] for t in listed].index("L1/relu")]["description"]} \
        in listed
    assert "class Model" in kernel_tools["kernel_show_task"].invoke({"task": "L1/relu"})
    with pytest.raises(UserError):
        kernel_tools["kernel_show_task"].invoke({"task": "L1/no_such_task"})


def test_running_tools_need_approval_and_reading_tools_do_not(kernel_tools):
    running = {name for name, tool in kernel_tools.items() if tool.needs_approval}
    assert running == {"kernel_check", "kernel_benchmark", "npu_profile"}
    assert all(kernel_tools[name].sandboxed for name in running)


def test_check_rejects_a_cheating_solution(kernel_tools):
    cheat = (SOLUTIONS / "adversarial" / "L1__relu__calls_reference_op.py").read_text()
    row = kernel_tools["kernel_check"].invoke({"task": "L1/relu", "source": cheat, "target": "cpu"})
    assert row["status"] == "rejected" and row["correct"] is False and "speedup" not in row


@pytest.mark.slow
def test_npu_profile_of_a_reference_solution(kernel_tools):
    from benchmarks.kernels.npu_references import solution_for
    from benchmarks.kernels.tasks import load_tasks

    source = solution_for(load_tasks("builtin:L1:relu")[0].source)
    profile = kernel_tools["npu_profile"].invoke({"task": "L1/relu", "source": source})
    assert profile["status"] == "correct" and profile["simulated"] is True
    assert profile["cycles"] > 0 and profile["bottleneck"] and "pipe_busy" in profile


def test_task_files_are_read_only_from_the_built_in_suites_and_the_work_directory(tmp_path):
    from tools.hostpaths import HostPaths

    work = tmp_path / "work"
    work.mkdir()
    relu = Path(__file__).resolve().parents[3] / "benchmarks" / "kernels" / "builtin" / "L1" / "relu.py"
    (work / "mine.py").write_text(relu.read_text())
    (tmp_path / "outside.py").write_text(relu.read_text())
    show = {tool.name: tool for tool in make_kernel_tools(HostPaths(work))}["kernel_show_task"]
    assert "class Model" in show.invoke({"task": "mine.py"}) and "class Model" in show.invoke({"task": str(relu)})
    for outside in ("/etc/passwd", str(tmp_path / "outside.py"), "../outside.py", str(tmp_path / "none.py"),
                    "L1/relu/../../../../../etc/passwd", "L1/relu+"):
        with pytest.raises(UserError, match="may only read files under|no built-in task"):
            show.invoke({"task": outside})
