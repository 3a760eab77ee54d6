from agents.compress.agent import AGENT, execute
from agents.compress.config import CompressConfig
from agents.runtime.run import Run


def test_a_resumed_run_takes_finished_steps_from_its_checkpoint():
    run = Run.create(AGENT, CompressConfig(steps="prune:0.5,quant:4:rtn", windows=2, calibration=4))
    with run.active():
        report = execute(run)
    assert [row["step"] for row in report.rows] == ["original", "prune:0.5:wanda", "quant:4:rtn"]
    assert report.summary["final_model"].endswith("step2-quant.pt")
    again = execute(Run.open(run.id))  # what `agent runs resume` calls
    assert again.rows == report.rows
    assert len(Run.open(run.id).events("compress.step")) == 2, "no step ran twice"
