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
