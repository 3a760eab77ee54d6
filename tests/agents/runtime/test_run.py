import json
import os

import pytest

from benchmarks.report import Report
from sandboxes import telemetry
from sandboxes.errors import UserError
from sandboxes.settings import Config

from agents.runtime.budget import BudgetExceeded
from agents.runtime.run import Run, list_run_ids, read_events


class Sample(Config):
    size: int = 3
    """How many."""


def test_create_writes_config_with_agent_argv_and_runtime(tmp_path):
    run = Run.create("demo", Sample(size=5), runtime={"model": "offline"}, argv=["run", "demo", "--size", "5"])
    assert run.dir == tmp_path / "runs" / run.id and run.artifacts.is_dir()
    meta = json.loads((run.dir / "config.json").read_text())
    assert meta["agent"] == "demo" and meta["argv"] == ["run", "demo", "--size", "5"]
    assert meta["config"] == {"size": 5} and run.config == {"size": 5} and meta["runtime"] == {"model": "offline"}
    assert run.status == "created"


def test_emit_appends_numbered_events_and_reopen_continues_the_sequence():
    run = Run.create("demo", {})
    run.emit("a", x=1)
    run.emit("model.call", prompt_tokens=3, completion_tokens=2, cost_usd=0.5)
    again = Run.open(run.id)
    again.emit("b")
    events = read_events(run.events_path)
    assert [e["seq"] for e in events] == [1, 2, 3] and events[0]["x"] == 1
    assert again.totals.calls == 1 and again.totals.tokens == 5 and again.totals.cost_usd == 0.5


def test_active_routes_telemetry_and_marks_finished():
    run = Run.create("demo", {})
    telemetry.emit("outside.run")
    with run.active():
        telemetry.emit("sandbox.result", returncode=0)
    kinds = [e["kind"] for e in run.events()]
    assert kinds == ["run.start", "sandbox.result", "run.end"] and run.status == "finished"


@pytest.mark.parametrize("error, status", [(ValueError("boom"), "failed"), (BudgetExceeded("spent"), "stopped"),
                                           (KeyboardInterrupt(), "interrupted")])
def test_active_records_how_a_run_ended(error, status):
    run = Run.create("demo", {})
    with pytest.raises(type(error)):
        with run.active():
            raise error
    assert run.status == status and run.events("run.end")[0]["status"] == status


def test_a_running_run_whose_process_died_reads_as_interrupted():
    run = Run.create("demo", {})
    run.set_status("running")
    (run.dir / "status.json").write_text(json.dumps({"status": "running", "pid": 2 ** 22 + 7}))
    assert run.status == "interrupted"
    run.set_status("running")
    assert run.status == "running" and os.getpid() == run.status_record()["pid"]


def test_open_by_prefix_and_last_and_clear_errors():
    first, second = Run.create("alpha", {}), Run.create("beta", {})
    assert Run.open(second.id[:-2]).id == second.id
    assert Run.open("last").id == list_run_ids()[-1]
    assert {first.id, second.id} == set(list_run_ids())
    with pytest.raises(UserError, match="no run 'nope'"):
        Run.open("nope")


def test_open_by_a_whole_id_reads_no_other_run(monkeypatch):
    """Opening each of N runs by id must not sort all N each time (the dashboard and `agent runs list` open many)."""
    run = Run.create("alpha", {})
    monkeypatch.setattr("agents.runtime.run.list_run_ids", lambda *_: pytest.fail("listed every run"))
    assert Run.open(run.id).dir == run.dir


def test_a_line_cut_short_by_a_kill_is_skipped():
    run = Run.create("demo", {})
    run.emit("whole")
    with run.events_path.open("a") as stream:
        stream.write('{"seq": 2, "kind": "cut')
    assert [e["kind"] for e in run.events()] == ["whole"]


def test_writers_in_other_processes_never_repeat_a_seq():
    """The agent and, say, the dashboard's pause request append to one events.jsonl through separate Run objects."""
    agent = Run.create("demo")
    agent.emit("node.start", node="act")
    dashboard = Run.open(agent.id)
    dashboard.emit("pause.requested")
    agent.emit("node.end", node="act")
    dashboard.emit("guidance", text="go on")
    agent.emit("model.call", prompt_tokens=3, completion_tokens=1, cost_usd=0.5)
    assert [e["seq"] for e in read_events(agent.events_path)] == [1, 2, 3, 4, 5]
    assert Run.open(agent.id).totals.calls == 1 and agent.totals.calls == 1


def test_an_event_after_a_line_cut_short_starts_a_line_of_its_own():
    run = Run.create("demo")
    run.emit("first")
    with run.events_path.open("a") as stream:
        stream.write('{"seq": 2, "kind": "cut sh')
    Run.open(run.id).emit("after")
    assert [e["kind"] for e in read_events(run.events_path)] == ["first", "after"]


def test_write_report_and_checkpointer_file():
    run = Run.create("demo", {})
    run.write_report(Report(summary={"best": 1.5}, rows=[{"case": "a", "score": 1.5}], title="t"))
    assert json.loads((run.dir / "report.json").read_text()) == {"summary": {"best": 1.5},
                                                               "rows": [{"case": "a", "score": 1.5}]}
    assert "| case | score |" in (run.dir / "report.md").read_text()
    assert run.read_report().summary == {"best": 1.5}
    assert run.checkpointer() is run.checkpointer()
    run.close()
    assert (run.dir / "checkpoints.sqlite").exists()


def test_a_runs_folder_that_is_a_file_is_a_user_error(tmp_path, monkeypatch):
    import pytest

    from agents.runtime.run import runs_root
    from sandboxes.errors import UserError

    (tmp_path / "afile").write_text("")
    monkeypatch.setenv("AGENT_RUNS_DIR", str(tmp_path / "afile"))
    with pytest.raises(UserError, match=r"afile \(from \$AGENT_RUNS_DIR\) is a file, not a folder"):
        runs_root()
    assert runs_root(tmp_path) == tmp_path
