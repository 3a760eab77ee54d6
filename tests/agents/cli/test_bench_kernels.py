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
