"""The trusted runner's secrets (seeds from the kernel's random source, never written anywhere) and its workers."""

from benchmarks.kernels.verifier.runner.launch import EvalConfig, runner_config
from benchmarks.kernels.verifier.runner.trusted import fresh_seed, roles
from sandboxes.targets.cpu import CpuTarget


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
