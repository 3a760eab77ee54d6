"""builtin:eager: KernelBench's baseline (the reference as ModelNew) as a named, labelled solution set."""

import pytest

from benchmarks.kernels.verifier.eager import LABEL, eager_config, eager_dir, eager_source
from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.static_checks import check_solution
from benchmarks.kernels.suite import pair_solutions
from sandboxes.errors import UserError
from sandboxes.targets.npu.target import NpuTarget


def test_the_baseline_is_the_reference_and_says_so(tiny_relu):
    source = eager_source(tiny_relu)
    assert source.startswith(tiny_relu.source.rstrip()) and "class ModelNew(Model):" in source and LABEL in source
    assert check_solution(source), "the baseline must never pass as an optimised solution"


def test_the_folder_pairs_with_its_tasks_and_is_written_once(tiny_relu, cpu_target):
    folder = eager_dir([tiny_relu], cpu_target)
    matching = pair_solutions([tiny_relu], folder)
    assert [p.label for p in matching.pairs] == ["L1__relu__eager"]
    stamp = (folder / "L1__relu__eager.py").stat().st_mtime_ns
    assert eager_dir([tiny_relu], cpu_target) == folder and (folder / "L1__relu__eager.py").stat().st_mtime_ns == stamp


def test_no_eager_baseline_on_a_simulated_target(tiny_relu):
    with pytest.raises(UserError, match="simulated"):
        eager_dir([tiny_relu], NpuTarget())


def test_the_baseline_runs_with_the_framework_checks_off(tiny_relu, cpu_target, sandbox, quick):
    config = eager_config(quick)
    assert not config.static_checks and config.tripwire == "off" and quick.static_checks
    result = evaluate(tiny_relu, eager_source(tiny_relu), cpu_target, sandbox=sandbox, config=config)
    assert result.correct, result.reason
    checked = evaluate(tiny_relu, eager_source(tiny_relu), cpu_target, sandbox=sandbox, config=quick)
    assert checked.status.value == "rejected"
