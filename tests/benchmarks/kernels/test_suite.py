"""Pairing solution files to tasks, parallel runs and the report shape."""

import pytest

from benchmarks.kernels.verifier.result import KernelResult, Status
from benchmarks.kernels.suite import build_report, default_jobs, pair_solutions, run_pairs, solutions_dir
from benchmarks.kernels.tasks import load_tasks
from sandboxes.errors import UserError
from sandboxes.targets.cpu import CpuTarget


def test_builtin_sets_and_folders():
    assert solutions_dir("builtin:reference", "cpu").name == "cpu"
    assert solutions_dir("builtin:adversarial", "gpu").name == "adversarial"
    with pytest.raises(UserError, match="unknown solution set"):
        solutions_dir("builtin:nope", "cpu")
    with pytest.raises(UserError, match="no reference solutions for target tpu"):
        solutions_dir("builtin:reference", "tpu")


def test_pairing_by_level_task_and_variant(tmp_path):
    tasks = load_tasks("builtin:L1:relu,softmax+builtin:L2:silu_mul")
    for name in ("L1__relu", "L1__relu__v2", "softmax", "L2__softmax", "L1__unknown"):
        (tmp_path / f"{name}.py").write_text("")
    pairs, missing = pair_solutions(tasks, tmp_path)
    assert sorted((p.task.qualified_name, p.label) for p in pairs) == [
        ("L1/relu", "L1__relu"), ("L1/relu", "L1__relu__v2"), ("L1/softmax", "softmax")]
    assert [t.qualified_name for t in missing] == ["L2/silu_mul"]


def test_reference_set_covers_at_least_ten_tasks():
    pairs, _ = pair_solutions(load_tasks("builtin"), solutions_dir("builtin:reference", "cpu"))
    assert len({p.task.qualified_name for p in pairs}) >= 10


def test_report_rows_and_summary(tmp_path):
    tasks = load_tasks("builtin:L1:relu")
    (tmp_path / "L1__relu.py").write_text("")
    pairs, _ = pair_solutions(tasks, tmp_path)
    result = KernelResult("L1/relu", Status.CORRECT, runtime_ms=1.0, reference_ms=2.0, compiled=True)
    report = build_report(pairs, [result], CpuTarget(), [], "t")
    row = report.rows[0]
    assert (row["task"], row["solution"], row["status"], row["speedup"]) == ("L1/relu", "L1__relu", "correct", 2.0)
    assert {"compile_rate", "correctness", "fast_p", "geomean_speedup"} <= set(report.summary)
    assert default_jobs(threads=64) == 1


def test_run_pairs_keeps_order_and_reports_progress(tmp_path, cpu_target):
    tasks = load_tasks("builtin:L1:relu,sigmoid")
    for name in ("L1__relu", "L1__sigmoid"):
        (tmp_path / f"{name}.py").write_text("import os\n")
    pairs, _ = pair_solutions(tasks, tmp_path)
    seen = []
    results = run_pairs(pairs, cpu_target, jobs=2, on_result=lambda done, pair, result: seen.append(done))
    assert [r.task for r in results] == ["L1/relu", "L1/sigmoid"]
    assert all(r.status is Status.REJECTED for r in results) and sorted(seen) == [1, 2]


def test_worker_threads_report_to_the_callers_event_sink(tmp_path, cpu_target):
    from sandboxes.telemetry import event_sink

    (tmp_path / "L1__relu.py").write_text("import os\n")
    pairs, _ = pair_solutions(load_tasks("builtin:L1:relu"), tmp_path)
    events = []
    with event_sink(lambda kind, fields: events.append(kind)):
        run_pairs(pairs, cpu_target, jobs=2)
    assert events == ["kernel.evaluate"]
