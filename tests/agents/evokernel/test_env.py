"""KernelEnv verifies through persistent runners by default: one server serves consecutive candidates."""

from benchmarks.kernels.verifier.harness import EvalConfig
from benchmarks.kernels.tasks import load_tasks
from sandboxes.select import get_sandbox
from sandboxes.targets.cpu import CpuTarget

from agents.evokernel.env import KernelEnv

SOLUTION = '''
import torch
import torch.nn as nn


class ModelNew(nn.Module):  # variant {n}
    def forward(self, x):
        return torch.relu(x)
'''


def test_consecutive_candidates_share_one_server_until_closed(small_tasks):
    task = next(t for t in load_tasks(str(small_tasks)) if t.name == "relu")
    config = EvalConfig(trials=2, warmup=0, min_timed_trials=2, timed_trials=2, timing_budget_s=0.0,
                        static_checks=False)
    env = KernelEnv(CpuTarget(), config, sandbox=get_sandbox("local"))
    try:
        verdicts = [env.verify(task, SOLUTION.format(n=n)) for n in range(3)]
        assert [v["status"] for v in verdicts] == ["correct"] * 3, verdicts
        assert env.verifiers.servers_started == 1
    finally:
        env.close()
    assert env.verifiers.servers_started == 1 and not env.verifiers.running
    assert KernelEnv(CpuTarget(), config, persistent=False).verifiers is None
