"""builtin:accepted: correct solutions written in many styles (OpenMP, kernels named like torch ops,
module-level helpers, docstrings that mention ATen, Triton, NPU, ...) are every one accepted by the
full verifier, status correct, on the builtin tasks shrunk to small inputs (no false positives)."""

from collections import defaultdict

import pytest

from benchmarks.kernels.kernelbench import ShapeScaling
from benchmarks.kernels.suite import default_jobs, pair_solutions, run_pairs, solutions_dir
from benchmarks.kernels.tasks import load_tasks
from benchmarks.kernels.verifier.runner.launch import EvalConfig
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from sandboxes.targets.gpu import GpuTarget
from sandboxes.targets.npu.target import NpuTarget

FAST = EvalConfig(trials=2, warmup=0, min_timed_trials=2, timed_trials=2, timing_budget_s=0.0, call_timeout_s=60.0)
SMALL = ShapeScaling(max_input_mb=0.25)


def accepted_pairs(target_name: str):
    """The accepted files of one target, each paired with its (shrunk) builtin task."""
    folder = solutions_dir("builtin:accepted", target_name)
    files = sorted(folder.glob("*.py"))
    by_level = defaultdict(set)
    for path in files:
        level, task = path.stem.split("__")[:2]
        by_level[level].add(task)
    selector = "+".join(f"builtin:{level}:{','.join(sorted(names))}" for level, names in sorted(by_level.items()))
    matching = pair_solutions(load_tasks(selector, SMALL), folder)
    assert not matching.unmatched and len(matching.pairs) == len(files)
    return matching.pairs


def test_the_set_has_twenty_solutions_in_three_languages():
    counts = {name: len(list(solutions_dir("builtin:accepted", name).glob("*.py"))) for name in ("cpu", "gpu", "npu")}
    assert sum(counts.values()) >= 20 and min(counts.values()) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("target_name", ["cpu", "gpu", "npu"])
def test_every_accepted_solution_is_correct(target_name, cpu_target, sandbox):
    makers = {"cpu": lambda: cpu_target, "gpu": lambda: GpuTarget(cpu_target.builder.cache), "npu": NpuTarget}
    target = makers[target_name]()
    pairs = accepted_pairs(target_name)
    with VerifierPool() as pool:
        results = run_pairs(pairs, target, sandbox=sandbox, config=FAST, jobs=default_jobs(), runner=pool)
    failures = {p.label: f"{r.status.value}: {r.reason}" for p, r in zip(pairs, results) if not r.correct}
    assert failures == {}
