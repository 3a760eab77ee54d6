"""`agent bench evokernel-time`: the main job as shipped and without its savings, timed side by side."""

import json

import pytest

from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.timing import ARMS, arm_order, execute_time_bench, time_config
from agents.runtime.run import Run
from sandboxes.errors import UserError
from tests.agents.evokernel.conftest import TASK


def test_a_model_is_refused(tmp_path):
    run = Run.create("evokernel-time", time_config(EvoKernelConfig(), 1), tmp_path / "runs")
    with pytest.raises(UserError, match="without --model"):
        execute_time_bench(run, model=object())


def test_arms_alternate_by_round_and_one_arm_can_be_timed_alone():
    assert time_config(EvoKernelConfig(), 2)["arms"] == list(ARMS)
    assert arm_order(list(ARMS), 0) == list(ARMS) and arm_order(list(ARMS), 1) == list(reversed(ARMS))
    assert arm_order(time_config(EvoKernelConfig(), 2, ["as shipped"])["arms"], 1) == ["as shipped"]
    with pytest.raises(UserError, match="unknown arm 'fast'"):
        time_config(EvoKernelConfig(), 1, ["fast"])


@pytest.mark.slow
def test_both_arms_run_cold_and_are_timed_with_the_load(agent_cli, isolated_agent_env, tmp_path):
    folder = tmp_path / "tasks"
    folder.mkdir()
    (folder / "relu.py").write_text(TASK.format(doc="ReLU activation.", expr="torch.relu(x)"))
    result = agent_cli("bench", "evokernel-time", "--target", "npu", "--tasks", str(folder), "--budget", "1",
                       "--json-out", str(tmp_path / "t.json"))
    assert result.code == 0, result.err
    report = json.loads((tmp_path / "t.json").read_text())
    assert [row["arm"] for row in report["rows"]] == ["as shipped", "without the savings"]
    for row in report["rows"]:
        assert row["attempts"] == 1 and row["verifications"] == 1 and row["wall_s"] > 0  # each arm starts cold
        assert row["load_before"] >= 0 and row["correctness"] == 1.0
        # the sandbox's runner reports what the verification cost it; the host side is this process's
        assert row["sandbox_cpu_s"] > 0 and row["host_cpu_s"] > 0
        assert row["cpu_s"] == pytest.approx(row["host_cpu_s"] + row["sandbox_cpu_s"], abs=0.15)
    summary = report["summary"]
    assert summary["attempts_ratio"] == 1.0 and summary["verifications_ratio"] == 1.0 and summary["wall_s_ratio"] > 0
    assert summary["cpu_s_ratio"] > 0
