"""The trusted runner's secrets: seeds from the kernel's random source that are never written anywhere."""

from benchmarks.kernels.verifier.runner.launch import EvalConfig, runner_config
from benchmarks.kernels.verifier.runner.trusted import fresh_seed
from sandboxes.targets.cpu import CpuTarget


def test_seeds_are_fresh_and_unrelated():
    seeds = {fresh_seed() for _ in range(64)}
    assert len(seeds) == 64 and all(0 <= seed < 2**63 for seed in seeds)


def test_the_config_in_the_work_dir_holds_no_seed():
    target = CpuTarget()
    config = runner_config(target.runner_settings(), None, EvalConfig())
    assert not any("seed" in key for key in config)
