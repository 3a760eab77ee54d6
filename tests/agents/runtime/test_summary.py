from benchmarks.report import Report

from agents.runtime.run import Run
from agents.runtime.summary import best_result, summarize


def test_summary_counts_steps_calls_and_cost():
    run = Run.create("demo", {}, runtime={"model": "openai/x"})
    with run.active():
        for node in ("plan", "act", "act"):
            run.emit("node.end", node=node)
        run.emit("model.call", prompt_tokens=10, completion_tokens=5, cost_usd=0.25)
        run.emit("best", value=0.9)
    info = summarize(Run.open(run.id))
    assert info["status"] == "finished" and info["steps"] == 3 and info["steps_by_node"] == {"plan": 1, "act": 2}
    assert (info["calls"], info["prompt_tokens"], info["cost_usd"]) == (1, 10, 0.25)
    assert info["best"] == 0.9 and info["model"] == "openai/x"
    run.write_report(Report(summary={"best": 0.95}))
    assert summarize(run)["best"] == 0.95


def test_best_is_none_when_nothing_reported():
    assert best_result([{"kind": "node.end"}], {}) is None
