"""KernelEnv verifies through persistent runners by default: one server serves consecutive candidates."""

from benchmarks.kernels.verifier.harness import EvalConfig
from benchmarks.kernels.tasks import load_tasks
from sandboxes.select import get_sandbox
from sandboxes.targets.cpu import CpuTarget

from agents.evokernel.env import KernelEnv

SOLUTION = '''
import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_loop(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""

lib = load_cpp("relu_loop", SOURCE, {"relu_loop": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):  # variant VARIANT
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_loop(out, x, x.numel())
        return out
'''


def solution(n: int) -> str:
    """The native ReLU as candidate number n: the same kernel, another source text (no cached verdict)."""
    return SOLUTION.replace("VARIANT", str(n))


def test_consecutive_candidates_share_one_server_until_closed(small_tasks):
    task = next(t for t in load_tasks(str(small_tasks)) if t.name == "relu")
    config = EvalConfig(trials=2, warmup=0, min_timed_trials=2, timed_trials=2, timing_budget_s=0.0)
    env = KernelEnv(CpuTarget(), config, sandbox=get_sandbox("local"))
    try:
        verdicts = [env.verify(task, solution(n)) for n in range(3)]
        assert [v["status"] for v in verdicts] == ["correct"] * 3, verdicts
        assert env.verifiers.servers_started == 1
    finally:
        env.close()
    assert env.verifiers.servers_started == 1 and not env.verifiers.running
    assert KernelEnv(CpuTarget(), config, persistent=False).verifiers is None


class SpawnFails:
    """A sandbox whose backend breaks after it proved itself: every long-lived runner fails to start."""

    name = "local"

    def __init__(self, inner):
        self.inner = inner

    def run(self, *args, **kwargs):
        return self.inner.run(*args, **kwargs)

    def spawn(self, *args, **kwargs):
        raise OSError("the container engine went away")


def test_a_sandbox_failure_stops_verification_instead_of_counting_as_a_wrong_kernel(small_tasks):
    import pytest

    from benchmarks.kernels.verifier.harness import evaluate
    from benchmarks.kernels.verifier.result import Status
    from benchmarks.kernels.verifier.runner.persistent import PersistentRunner
    from sandboxes.errors import UserError

    task = next(t for t in load_tasks(str(small_tasks)) if t.name == "relu")
    broken, unchecked = SpawnFails(get_sandbox("local")), EvalConfig(static_checks=False)
    result = evaluate(task, solution(0), CpuTarget(), sandbox=broken, config=unchecked,
                      runner=PersistentRunner())
    assert result.status is Status.SANDBOX_ERROR and "container engine went away" in result.reason
    env = KernelEnv(CpuTarget(), unchecked, sandbox=broken)
    with pytest.raises(UserError, match="sandbox failed while verifying .*not counted, learnt from or rewarded"):
        env.verify(task, solution(1))
    assert env._cache == {}
    env.close()


def test_feedback_tells_the_model_about_flags_and_a_failed_range_trial():
    from benchmarks.kernels.verifier.result import KernelResult, Status

    from agents.evokernel.env import feedback_text

    result = KernelResult("L1/softmax", Status.CORRECT, runtime_ms=1.5, reference_ms=2.0,
                          flags=["wrong outside the task's input range"],
                          evidence={"range_trial": "failed: range trial (floating inputs times 32): the output is "
                                                   "not finite where the reference is"})
    text = feedback_text(result)
    assert text.startswith("correct; 1.5 ms vs reference 2 ms; flagged: wrong outside the task's input range")
    assert "not finite where the reference is" in text
    assert feedback_text(KernelResult("L1/relu", Status.CORRECT, runtime_ms=1.0)) == "correct; 1 ms"
