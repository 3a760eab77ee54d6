"""builtin:reference on cpu: every reference solution passes on its built-in task (slow: ~23 evaluations and
their builds, one through load_inline, which starts early in the background: tests/warm_builds.py). The tasks are
shrunk to about 1 MiB of inputs (still many OpenMP chunks and vector blocks per call) and verified through
long-lived runners: at full size, one runner start per solution, the test ran into pytest's 600 s limit on a
crowded machine.

Whether they beat torch eager is measured by `agent bench kernels --solutions builtin:reference`,
never asserted here.
"""

import pytest

from benchmarks.kernels.kernelbench import ShapeScaling
from benchmarks.kernels.suite import default_jobs, pair_solutions, run_pairs, solutions_dir
from benchmarks.kernels.tasks import load_tasks
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from sandboxes.targets.cpu import CpuTarget
from tests.warm_builds import solution_builds

SOLUTIONS = solutions_dir("builtin:reference", "cpu")
TORCH_EXTENSIONS = solution_builds(CpuTarget, *(p for p in sorted(SOLUTIONS.glob("*.py"))
                                                 if "load_inline" in p.read_text()))
"""The solutions that compile against torch's C++ headers (load_inline: a minute each), built early."""


@pytest.mark.slow
@pytest.mark.warm_build(TORCH_EXTENSIONS)
def test_every_cpu_reference_solution_is_correct(cpu_target, sandbox, quick):
    tasks = load_tasks("builtin", ShapeScaling(max_input_mb=1.0))
    pairs = pair_solutions(tasks, SOLUTIONS).pairs
    with VerifierPool() as pool:  # long-lived runners: no interpreter start and torch import per solution
        results = run_pairs(pairs, cpu_target, sandbox=sandbox, config=quick, jobs=default_jobs(), runner=pool)
    failures = {p.label: r.reason for p, r in zip(pairs, results) if not r.correct}
    assert failures == {} and len(results) >= 10
