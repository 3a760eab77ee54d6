import json
from pathlib import Path

from agents.cli.run_compress import execute
from agents.runtime.registry import get_agent
from agents.runtime.run import Run


def test_run_compress_prints_a_row_after_each_step_and_resumes(isolated_agent_env, agent_cli):
    result = agent_cli("run", "compress", "--steps", "prune:0.5,lowrank:0.8,quant:4:rtn", "--windows", "8",
                       "--calibration", "8", "--json", "out.json")
    assert result.code == 0, result.err
    for label in ("original: perplexity", "prune:0.5:wanda: perplexity", "lowrank:0.8:a3: perplexity",
                  "quant:4:rtn: perplexity"):
        assert label in result.out
    report = json.loads((isolated_agent_env / "out.json").read_text())
    rows = report["rows"]
    assert [row["step"] for row in rows] == ["original", "prune:0.5:wanda", "lowrank:0.8:a3", "quant:4:rtn"]
    assert rows[0]["mean_block_error"] == 0 and rows[1]["mean_block_error"] > 0
    assert rows[1]["bytes_reduction"] > 1.5 and rows[3]["bytes_reduction"] > 3
    run_id = Path(report["summary"]["final_model"]).parents[1].name
    run = Run.open(run_id)
    assert len(run.events("compress.step")) == 3 and (run.artifacts / "step3-quant.pt").exists()
    again = execute(run)  # what `agent runs resume` calls: finished steps come from the checkpoint
    assert [row["perplexity"] for row in again.rows] == [row["perplexity"] for row in rows]
    assert len(Run.open(run_id).events("compress.step")) == 3 and get_agent("compress") is execute


def test_run_compress_rejects_a_bad_step(isolated_agent_env, agent_cli):
    result = agent_cli("run", "compress", "--steps", "prune:0.5,shrink:2")
    assert result.code == 2 and "bad step 'shrink:2'" in result.err


def test_bench_macko_and_spmv_print_tables(isolated_agent_env, agent_cli):
    result = agent_cli("bench", "macko", "--rows", "128", "--cols", "256", "--densities", "0.5,0.1",
                       "--json", "m.json")
    assert result.code == 0, result.err
    rows = json.loads((isolated_agent_env / "m.json").read_text())["rows"]
    assert rows[0]["macko_reduction"] > 1.4 and rows[1]["macko_reduction"] > 5
    result = agent_cli("bench", "spmv", "--rows", "128", "--cols", "256", "--repeats", "2", "--no-kernel",
                       "--json", "s.json")
    assert result.code == 0, result.err
    rows = json.loads((isolated_agent_env / "s.json").read_text())["rows"]
    assert [row["sparsity"] for row in rows] == [0.5, 0.9]
    assert all(row["numpy_vs_dense_fp16"] > 0 for row in rows)
    assert all(row["gpu"] == "not run: no GPU" or "gpu_torch_vs_dense_fp16" in row for row in rows)
