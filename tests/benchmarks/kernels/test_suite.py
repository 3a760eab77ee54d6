"""Pairing solution files to tasks, parallel runs and the report shape."""

from dataclasses import replace

import pytest

from benchmarks.kernels.verifier.result import KernelResult, Status
from benchmarks.kernels.suite import build_report, default_jobs, pair_solutions, run_pairs, solutions_dir
from benchmarks.kernels.tasks import SkippedTask, load_tasks
from sandboxes.errors import UserError
from sandboxes.targets.cpu import CpuTarget


def test_builtin_sets_and_folders():
    assert solutions_dir("builtin:reference", "cpu").name == "cpu"
    assert solutions_dir("builtin:adversarial", "cpu").name == "adversarial"
    assert solutions_dir("builtin:adversarial", "gpu").name == "gpu"  # the Triton and CUDA hacks
    assert solutions_dir("builtin:accepted", "npu").parent.name == "accepted"
    with pytest.raises(UserError, match="unknown solution set"):
        solutions_dir("builtin:nope", "cpu")
    with pytest.raises(UserError, match="no reference solutions for target tpu"):
        solutions_dir("builtin:reference", "tpu")


def test_pairing_by_level_task_and_variant(tmp_path):
    tasks = load_tasks("builtin:L1:relu,softmax+builtin:L2:silu_mul")
    for name in ("L1__relu", "L1__relu__v2", "softmax", "L2__softmax", "L1__unknown"):
        (tmp_path / f"{name}.py").write_text("")
    matching = pair_solutions(tasks, tmp_path)
    assert sorted((p.task.qualified_name, p.label) for p in matching.pairs) == [
        ("L1/relu", "L1__relu"), ("L1/relu", "L1__relu__v2"), ("L1/softmax", "softmax")]
    assert [t.qualified_name for t in matching.missing] == ["L2/silu_mul"]
    assert [p.name for p in matching.unmatched] == ["L1__unknown.py", "L2__softmax.py"]
    assert matching.warnings() == ["warning: solution L1__unknown.py pairs with no task",
                                   "warning: solution L2__softmax.py pairs with no task",
                                   "warning: 1 task(s) have no solution: L2/silu_mul"]


def test_pairing_kernelbench_names_with_double_underscores_and_trailing_underscores(tmp_path):
    """KernelBench's conv names contain ``__``, others end in ``_``: every one pairs, variants too, and a name may
    leave the trailing ``_`` out (``26_GELU.py``; it paired with nothing)."""
    level = tmp_path / "level1"
    level.mkdir()
    names = ["50_conv_standard_2D__square_input__square_kernel", "1_Square_matrix_multiplication_",
             "1_Square_matrix_multiplication", "26_GELU_"]
    for name in names:
        (level / f"{name}.py").write_text(load_tasks("builtin:L1:relu")[0].source)
    solutions = tmp_path / "solutions"
    solutions.mkdir()
    stems = ["level1__50_conv_standard_2D__square_input__square_kernel",
             "level1__50_conv_standard_2D__square_input__square_kernel__tiled",
             "level1__1_Square_matrix_multiplication_", "level1__1_Square_matrix_multiplication___v2",
             "level1__1_Square_matrix_multiplication__v3", "26_GELU_", "level1__27_SELU_", "26_GELU",
             "level1__26_GELU__mine"]
    for stem in stems:
        (solutions / f"{stem}.py").write_text("")
    matching = pair_solutions(load_tasks(str(level)), solutions)
    assert sorted((p.task.name, p.label) for p in matching.pairs) == sorted([
        (names[0], stems[0]), (names[0], stems[1]), (names[1], stems[2]), (names[1], stems[3]),
        (names[2], stems[4]), (names[3], stems[5]), (names[3], stems[7]), (names[3], stems[8])])
    assert [p.name for p in matching.unmatched] == ["level1__27_SELU_.py"] and not matching.missing


def test_reference_set_covers_at_least_ten_tasks():
    pairs = pair_solutions(load_tasks("builtin"), solutions_dir("builtin:reference", "cpu")).pairs
    assert len({p.task.qualified_name for p in pairs}) >= 10


def test_report_rows_and_summary(tmp_path):
    tasks = load_tasks("builtin:L1:relu")
    (tmp_path / "L1__relu.py").write_text("")
    pairs = pair_solutions(tasks, tmp_path).pairs
    result = KernelResult("L1/relu", Status.CORRECT, runtime_ms=1.0, reference_ms=2.0, compiled=True)
    report = build_report(pairs, [result], CpuTarget(), [], "t")
    row = report.rows[0]
    assert (row["task"], row["solution"], row["status"], row["speedup"]) == ("L1/relu", "L1__relu", "correct", 2.0)
    assert {"compile_rate", "correctness", "fast_p", "geomean_speedup"} <= set(report.summary)
    assert "shapes" not in row and "solutions_without_task" not in report.summary
    assert default_jobs(threads=64) == 1


def test_report_names_what_paired_with_nothing_and_what_was_scaled(tmp_path):
    scaled = replace(load_tasks("builtin:L1:relu")[0], shapes="scaled x0.5 (dim 262144->131072)")
    (tmp_path / "L1__relu.py").write_text("")
    pairs = pair_solutions([scaled], tmp_path).pairs
    result = KernelResult("L1/relu", Status.CORRECT, runtime_ms=1.0, reference_ms=2.0, compiled=True)
    skipped = [SkippedTask(tmp_path / "bad.py", "not valid Python")]
    report = build_report(pairs, [result], CpuTarget(), [], "t", unmatched=[tmp_path / "x.py"], skipped=skipped)
    assert report.rows[0]["shapes"] == "scaled x0.5 (dim 262144->131072)"
    assert report.summary["solutions_without_task"] == ["x.py"]
    assert report.summary["skipped_task_files"] == {"bad.py": "not valid Python"}
    assert report.summary["shape_scaled_tasks"] == 1


def test_run_pairs_keeps_order_and_reports_progress(tmp_path, cpu_target):
    tasks = load_tasks("builtin:L1:relu,sigmoid")
    for name in ("L1__relu", "L1__sigmoid"):
        (tmp_path / f"{name}.py").write_text("import os\n")
    pairs = pair_solutions(tasks, tmp_path).pairs
    seen = []
    results = run_pairs(pairs, cpu_target, jobs=2, on_result=lambda done, pair, result: seen.append(done))
    assert [r.task for r in results] == ["L1/relu", "L1/sigmoid"]
    assert all(r.status is Status.REJECTED for r in results) and sorted(seen) == [1, 2]


def test_worker_threads_report_to_the_callers_event_sink(tmp_path, cpu_target):
    from sandboxes.telemetry import event_sink

    (tmp_path / "L1__relu.py").write_text("import os\n")
    pairs = pair_solutions(load_tasks("builtin:L1:relu"), tmp_path).pairs
    events = []
    with event_sink(lambda kind, fields: events.append(kind)):
        run_pairs(pairs, cpu_target, jobs=2)
    assert events == ["kernel.evaluate"]
