import json

from agents.runtime.run import Run
from agents.splittester.agent import AGENT, execute
from agents.splittester.config import SplitTesterConfig
from tools.drc.render import read_layout


def test_offline_run_reports_every_selector_and_resumes_without_work(tmp_path, drc_runner):
    config = SplitTesterConfig(tasks="density-00", n=4, rounds=1)
    run = Run.create(AGENT, config, root=tmp_path)
    with run.active():
        report = execute(run, None, runner=drc_runner)
    summary = report.summary
    assert summary["policy"].startswith("offline policy") and summary["tasks"] == 1
    for key in ["pass@1", "oracle_pass@N", "bon_random", "bon_best_score", "bon_codet", "bon_mbr_exec",
                "bon_splittester", "compile_rate", "error_rate", "cost_usd"]:
        assert key in summary
    assert summary["bon_llm_judge_no_exec"] is None
    assert [row["task"] for row in report.rows] == ["density-00"]
    assert (run.artifacts / "density-00" / "selection.json").is_file()
    evidence = json.loads((run.artifacts / "density-00" / "evidence.json").read_text())
    assert evidence["tests"] and len(evidence["verdicts"]) == 4
    assert all(len(row) == len(evidence["tests"]) for row in evidence["verdicts"])
    for test in evidence["tests"]:
        assert set(test["expected"]) == set(evidence["categories"])
        assert read_layout((run.artifacts / "density-00" / test["file"]).read_bytes()).top_cell() is not None
    processes = drc_runner.stats.processes
    again = execute(Run.open(run.id, root=tmp_path), None, runner=drc_runner)
    assert again.rows == report.rows and drc_runner.stats.processes == processes
