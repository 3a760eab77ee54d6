import json
from pathlib import Path

from agents.runtime.run import Run


def test_run_compress_prints_a_row_after_each_step(isolated_agent_env, agent_cli):
    result = agent_cli("run", "compress", "--steps", "prune:0.5,lowrank:0.8,quant:4:rtn", "--windows", "8",
                       "--calibration", "8", "--json-out", "out.json")
    assert result.code == 0, result.err
    for label in ("original: perplexity", "prune:0.5:wanda: perplexity", "lowrank:0.8:a3: perplexity",
                  "quant:4:rtn: perplexity"):
        assert label in result.out
    report = json.loads((isolated_agent_env / "out.json").read_text())
    rows = report["rows"]
    assert [row["step"] for row in rows] == ["original", "prune:0.5:wanda", "lowrank:0.8:a3", "quant:4:rtn"]
    assert rows[0]["mean_block_error"] == 0 and rows[1]["mean_block_error"] > 0
    assert rows[1]["bytes_reduction"] > 1.5 and rows[3]["bytes_reduction"] > 3
    run = Run.open(report["run"]["id"])
    assert Path(report["summary"]["final_model"]).parents[1] == run.dir and run.status == "finished"
    assert len(run.events("compress.step")) == 3 and (run.artifacts / "step3-quant.pt").exists()


def test_run_compress_rejects_a_bad_step(isolated_agent_env, agent_cli):
    result = agent_cli("run", "compress", "--steps", "prune:0.5,shrink:2")
    assert result.code == 2 and "bad step 'shrink:2'" in result.err
