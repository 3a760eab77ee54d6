"""The trusted runner's secrets (seeds from the kernel's random source, never written anywhere) and its workers."""

from benchmarks.kernels.suite import SOLUTIONS_ROOT
from benchmarks.kernels.tasks import load_task
from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.runner.launch import EvalConfig, runner_config
from benchmarks.kernels.verifier.runner.trusted import fresh_seed, roles
from sandboxes.targets.cpu import CpuTarget
from tests.benchmarks.kernels.conftest import TINY_RELU


def test_seeds_are_fresh_and_unrelated():
    seeds = {fresh_seed() for _ in range(64)}
    assert len(seeds) == 64 and all(0 <= seed < 2**63 for seed in seeds)


def test_the_config_in_the_work_dir_holds_no_seed():
    target = CpuTarget()
    config = runner_config(target.runner_settings(), None, EvalConfig())
    assert not any("seed" in key for key in config)


def test_a_simulated_or_untimed_evaluation_forks_only_the_solutions_worker():
    assert roles({"timing": "simulated"}) == roles({"timing": "none"}) == ("solution",)
    assert roles({"timing": "wall"}) == roles({"timing": "device"}) == ("solution", "reference")


BROKEN_INPUTS = TINY_RELU.replace("def get_inputs():\n", "def get_inputs():\n    raise ValueError('no such shape')\n")


def test_an_exception_in_the_tasks_own_code_is_a_task_error(tmp_path, cpu_target, sandbox, brief):
    """It was a crash with the runner's traceback as the reason, as if the solution were at fault."""
    path = tmp_path / "relu.py"
    path.write_text(BROKEN_INPUTS)
    solution = (SOLUTIONS_ROOT / "reference" / "cpu" / "L1__relu.py").read_text()
    result = evaluate(load_task(path, level="L1"), solution, cpu_target, sandbox=sandbox, config=brief)
    assert result.status.value == "task_error", result.reason
    assert "the task's get_inputs() raised ValueError: no such shape" in result.reason
