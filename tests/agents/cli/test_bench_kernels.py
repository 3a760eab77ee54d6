"""`agent bench kernels` end to end: rows, summary, plot and run directory; user errors are one line."""

import json
import shutil

import pytest

from benchmarks.kernels.suite import SOLUTIONS_ROOT


@pytest.fixture
def solutions(tmp_path):
    folder = tmp_path / "solutions"
    folder.mkdir()
    shutil.copy(SOLUTIONS_ROOT / "reference" / "cpu" / "L1__relu.py", folder / "L1__relu.py")
    shutil.copy(SOLUTIONS_ROOT / "adversarial" / "L1__relu__thread.py", folder / "L1__relu__thread.py")
    return folder


def test_bench_kernels_writes_rows_summary_and_plot(isolated_agent_env, agent_cli, solutions):
    out = isolated_agent_env / "out.json"
    result = agent_cli("bench", "kernels", "--tasks", "builtin:L1:relu", "--solutions", str(solutions),
                       "--sandbox", "local", "--timing-budget", "0.3", "--json-out", str(out))
    assert result.code == 0, result.err
    report = json.loads(out.read_text())
    rows = {row["solution"]: row for row in report["rows"]}
    assert rows["L1__relu"]["status"] == "correct" and rows["L1__relu"]["speedup"] > 0
    assert rows["L1__relu__thread"]["status"] == "rejected" and "[imports]" in rows["L1__relu__thread"]["reason"]
    for row in rows.values():
        assert {"task", "status", "correct", "reason", "speedup", "runtime_ms", "reference_ms"} <= set(row)
    summary = report["summary"]
    assert summary["correctness"] == 0.5 and summary["compile_rate"] == 0.5
    assert set(summary["fast_p"]) == {"fast_0", "fast_1", "fast_1.5", "fast_2"}
    (run_dir,) = (isolated_agent_env / "runs").iterdir()
    assert (run_dir / "artifacts" / "speedup.png").is_file() and (run_dir / "report.md").is_file()


def test_unknown_target_and_empty_selection_are_one_line_errors(isolated_agent_env, agent_cli, solutions):
    result = agent_cli("bench", "kernels", "--target", "tpu")
    assert result.code == 2 and "unknown target 'tpu'" in result.err
    result = agent_cli("bench", "kernels", "--tasks", "builtin:L2:silu_mul", "--solutions", str(solutions))
    assert result.code == 2 and "no solution in" in result.err
    folder = solutions.parent / "tasks"
    folder.mkdir()
    shutil.copy(SOLUTIONS_ROOT.parent / "builtin" / "L1" / "relu.py", folder / "19_ReLU.py")
    result = agent_cli("bench", "kernels", "--tasks", str(folder))  # KernelBench-style tasks, builtin solutions
    assert result.code == 2 and "--solutions DIR" in result.err and "builtin:eager" in result.err


@pytest.mark.parametrize("flag, value, message", [
    ("--shape-scale", "0", "invalid --shape-scale: Input should be greater than 0"),
    ("--max-input-mb", "-1", "invalid --max-input-mb"), ("--trials", "0", "invalid --trials"),
    ("--threads", "0", "invalid --threads"), ("--jobs", "0", "invalid --jobs"),
    ("--timing-budget", "-1", "invalid --timing-budget"), ("--timeout", "0", "invalid --timeout"),
    ("--range-check", "bogus", "invalid --range-check")])
def test_a_flag_value_out_of_range_is_a_one_line_error(isolated_agent_env, agent_cli, flag, value, message):
    """They gave a pydantic traceback, or ran every solution into a `crashed` verdict blaming the kernel."""
    result = agent_cli("bench", "kernels", "--tasks", "builtin:L1:relu", flag, value)
    assert result.code == 2 and message in result.err and "Traceback" not in result.err, result.err
    assert not (isolated_agent_env / "runs").exists() or not any((isolated_agent_env / "runs").iterdir())


def test_the_eager_baseline_is_a_named_labelled_set(isolated_agent_env, agent_cli):
    out = isolated_agent_env / "out.json"
    result = agent_cli("bench", "kernels", "--tasks", "builtin:L1:relu", "--solutions", "builtin:eager",
                       "--sandbox", "local", "--shape-scale", "0.01", "--trials", "2", "--timing-budget", "0.1",
                       "--json-out", str(out))
    assert result.code == 0, result.err
    report = json.loads(out.read_text())
    (row,) = report["rows"]
    assert row["solution"] == "L1__relu__eager" and row["status"] == "correct"
    assert report["summary"]["solutions"].startswith("eager baseline")
    result = agent_cli("bench", "kernels", "--target", "npu", "--tasks", "builtin:L1:relu",
                       "--solutions", "builtin:eager")
    assert result.code == 2 and "simulated" in result.err


def test_a_kernelbench_folder_warns_about_what_pairs_with_nothing_and_scales_shapes(isolated_agent_env, agent_cli,
                                                                                    tmp_path):
    from benchmarks.kernels.kernelbench import ShapeScaling
    from benchmarks.kernels.npu_references import solution_for
    from benchmarks.kernels.tasks import load_tasks

    tasks = str(SOLUTIONS_ROOT.parents[2] / "tests" / "benchmarks" / "kernels" / "kernelbench_format")
    folder = tmp_path / "kernelbench-solutions"
    folder.mkdir()
    relu = next(t for t in load_tasks(tasks, ShapeScaling(max_input_mb=0.05)) if t.name == "19_ReLU")
    (folder / "kernelbench_format__19_ReLU.py").write_text(solution_for(relu.source))
    (folder / "kernelbench_format__7_Nothing_.py").write_text("")
    out = isolated_agent_env / "out.json"
    result = agent_cli("bench", "kernels", "--target", "npu", "--tasks", f"{tasks}::19_*,26_*,99_*",
                       "--solutions", str(folder), "--sandbox", "local", "--max-input-mb", "0.05", "--trials", "2",
                       "--memory-mb", "2048", "--timeout", "120", "--json-out", str(out))
    assert result.code == 0, result.err
    assert "warning: skipped 99_Missing_init_inputs_.py" in result.err
    assert "warning: solution kernelbench_format__7_Nothing_.py pairs with no task" in result.err
    assert "1 task(s) have no solution: kernelbench_format/26_GELU_" in result.err
    report = json.loads(out.read_text())
    (row,) = report["rows"]
    assert row["status"] == "correct" and row["shapes"].startswith("scaled x")
    summary = report["summary"]
    assert summary["solutions_without_task"] == ["kernelbench_format__7_Nothing_.py"]
    assert list(summary["skipped_task_files"]) == ["99_Missing_init_inputs_.py"] and summary["tasks_without_solution"] == 1


def test_a_crash_shows_its_exception_in_the_table_and_its_traceback_in_the_report(isolated_agent_env, agent_cli):
    folder = isolated_agent_env / "crashing"
    folder.mkdir()
    (folder / "L1__relu.py").write_text("import torch\n\n\nclass ModelNew(torch.nn.Module):\n"
                                        "    def forward(self, x):\n        raise ValueError('negative tile length')\n")
    result = agent_cli("bench", "kernels", "--tasks", "builtin:L1:relu", "--solutions", str(folder),
                       "--sandbox", "local", "--trials", "1")
    assert result.code == 0, result.err
    assert "ValueError: negative tile length" in result.out and "File \"" not in result.out
    assert "all columns and whole cells in report.md" in " ".join(result.out.split())
    (run_dir,) = (isolated_agent_env / "runs").iterdir()
    [row] = json.loads((run_dir / "report.json").read_text())["rows"]
    assert row["status"] == "crashed" and "Traceback" in row["reason"] and "File \"" in row["reason"]


def test_on_a_ray_cluster_the_verdicts_are_those_of_a_local_run(isolated_agent_env, agent_cli, solutions):
    from tests.fakes.ray_cluster import shared_cluster

    shared_cluster()
    rows = {}
    for executor in ("local", "ray"):
        out = isolated_agent_env / f"{executor}.json"
        result = agent_cli("bench", "kernels", "--tasks", "builtin:L1:relu", "--solutions", str(solutions),
                           "--sandbox", "local", "--timing-budget", "0.1", "--trials", "2", "--executor", executor,
                           "--persistent", "--json-out", str(out))
        assert result.code == 0, result.err
        report = json.loads(out.read_text())
        rows[executor] = sorted((r["solution"], r["status"], r.get("stage"), r["reason"]) for r in report["rows"])
        rows[f"{executor} summary"] = report["summary"].get("executor")
    assert rows["ray"] == rows["local"] and {status for _, status, _, _ in rows["ray"]} == {"correct", "rejected"}
    assert rows["ray summary"] == "ray" and rows["local summary"] is None


def test_a_gpu_target_on_a_cluster_without_gpus_is_refused_in_one_line(isolated_agent_env, agent_cli):
    from tests.fakes.ray_cluster import shared_cluster

    shared_cluster()
    result = agent_cli("bench", "kernels", "--target", "gpu", "--tasks", "builtin:L1:relu", "--executor", "ray",
                       "--sandbox", "local")
    assert result.code == 2
    (error,) = [line for line in result.err.splitlines() if line.startswith("error:")]
    assert "no node of the Ray cluster can run this evaluation: it needs 1 CPU, 1 GPU" in error
    assert "ray start --num-gpus" in error
