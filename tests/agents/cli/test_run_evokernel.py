def test_offline_run_on_a_target_without_templates_is_a_one_line_error(agent_cli):
    result = agent_cli("run", "evokernel", "--target", "cpu", "--tasks", "builtin:L1:relu", "--model", "offline")
    assert result.code == 2 and "offline policy needs template kernels" in result.err


def test_a_sandbox_that_cannot_run_a_trivial_job_stops_the_run_before_its_first_attempt(
        agent_cli, isolated_agent_env, monkeypatch):
    import dataclasses

    import sandboxes.select as select
    from sandboxes.local import LocalSandbox

    broken = LocalSandbox()
    broken.caps = dataclasses.replace(broken.caps, bwrap=False, unshare=True, unshare_map="--no-such-option")
    monkeypatch.setenv("AGENT_SANDBOX", "local")
    monkeypatch.setattr(select, "_cached", lambda name: select.prove(broken, name))
    result = agent_cli("run", "evokernel", "--target", "npu", "--tasks", "builtin:L1:relu", "--budget", "1")
    broken.close()
    assert result.code == 2 and not (isolated_agent_env / "runs").exists()
    error, = [line for line in result.err.splitlines() if line.startswith("error:")]
    assert "sandbox cannot run a trivial job" in error and "fix: install bubblewrap" in error


def test_a_sandbox_that_fails_during_the_run_stops_it_and_nothing_is_learnt(agent_cli, isolated_agent_env, monkeypatch):
    import sqlite3

    import sandboxes.select as select
    from tests.agents.evokernel.test_env import SpawnFails

    monkeypatch.setenv("AGENT_SANDBOX", "local")
    broken = SpawnFails(select.get_sandbox("local"))
    monkeypatch.setattr(select, "_cached", lambda name: broken)
    memory = isolated_agent_env / "memory.sqlite"
    result = agent_cli("run", "evokernel", "--target", "npu", "--tasks", "builtin:L1:relu", "--budget", "2",
                       "--memory", str(memory))
    assert result.code == 2, result.err
    error, = [line for line in result.err.splitlines() if line.startswith("error:")]
    assert "sandbox failed while verifying L1/relu" in error and "agent runs resume" in error
    with sqlite3.connect(memory) as db:
        learnt = db.execute("SELECT count(*) FROM entries WHERE kind IN ('experience', 'trace')").fetchone()[0]
        rewarded = db.execute("SELECT count(*) FROM applied").fetchone()[0]
    assert learnt == 0 and rewarded == 0


def test_a_run_verifying_on_a_ray_cluster_gets_the_verdicts_of_a_local_run(agent_cli, isolated_agent_env, monkeypatch):
    import json

    from tests.fakes.ray_cluster import shared_cluster

    shared_cluster()
    monkeypatch.setenv("AGENT_SANDBOX", "local")  # the driver's backend, which the run hands to the nodes
    verified = {}
    for executor in ("local", "ray"):
        monkeypatch.setenv("AGENT_RUNS_DIR", str(isolated_agent_env / executor))  # no verdict shared between them
        result = agent_cli("run", "evokernel", "--target", "npu", "--tasks", "builtin:L1:softmax", "--budget", "1",
                           "--executor", executor, "--memory", str(isolated_agent_env / f"{executor}.sqlite"))
        assert result.code == 0, result.err
        (events,) = (isolated_agent_env / executor).glob("*/events.jsonl")
        records = [json.loads(line) for line in events.read_text().splitlines()]
        verified[executor] = sorted((e["task"], e["attempt"], e["status"], e["latency_ms"]) for e in records
                                    if e["kind"] == "evokernel.verified")
        verified[f"{executor} on ray"] = sum(e["kind"] == "executor.result" for e in records)
    assert verified["ray"] == verified["local"] and len(verified["local"]) == 1
    assert verified["ray on ray"] == len(verified["ray"]) and verified["local on ray"] == 0
