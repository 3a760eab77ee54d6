"""builtin:reference on cpu: every reference solution passes on its built-in task (slow: ~20 evaluations).

Whether they beat torch eager is measured by `agent bench kernels --solutions builtin:reference`,
never asserted here.
"""

import pytest

from benchmarks.kernels.suite import default_jobs, pair_solutions, run_pairs, solutions_dir
from benchmarks.kernels.tasks import load_tasks


@pytest.mark.slow
def test_every_cpu_reference_solution_is_correct(cpu_target, sandbox, quick):
    pairs = pair_solutions(load_tasks("builtin"), solutions_dir("builtin:reference", "cpu")).pairs
    results = run_pairs(pairs, cpu_target, sandbox=sandbox, config=quick, jobs=default_jobs())
    failures = {p.label: r.reason for p, r in zip(pairs, results) if not r.correct}
    assert failures == {} and len(results) >= 10
