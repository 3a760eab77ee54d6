"""Clear errors: one line on stderr and exit code 2 (the traceback only with --debug)."""

import pytest

from agents.runtime.run import Run, list_run_ids


def assert_one_line_error(result, *fragments):
    assert result.code == 2, (result.out, result.err)
    lines = result.err.strip().splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    assert errors == lines[-1:], f"one error line, last on stderr: {result.err}"
    assert "Traceback" not in result.err
    for fragment in fragments:
        assert fragment in errors[0]


def test_no_credentials(agent_cli):
    result = agent_cli("run", "demo", "--model", "openai/gpt-4o-mini")
    assert_one_line_error(result, "no credentials for model 'openai/gpt-4o-mini'", "OPENAI_API_KEY")
    assert list_run_ids() == [], "nothing is created for a run that cannot start"


def test_unknown_provider(agent_cli):
    assert_one_line_error(agent_cli("run", "demo", "--model", "madeup/model-x"), "unknown model provider")


def test_malformed_config_file(agent_cli, tmp_path):
    (tmp_path / "agentkiln.toml").write_text("[run\nmodel = \n")
    assert_one_line_error(agent_cli("run", "demo"), "malformed config file agentkiln.toml")


def test_a_reply_that_does_not_parse(agent_cli, fake_openai):
    fake_openai.replies = ["I would rather not say.", "Still no expression here!"]
    result = agent_cli("run", "demo", "--model", "openai/gpt-4o-mini", "--api-base", fake_openai.url)
    assert_one_line_error(result, "did not parse after one re-ask")
    run = Run.open(list_run_ids()[-1])
    assert run.status == "failed" and len(run.events("model.parse_error")) == 2
    assert len(fake_openai.requests) == 2 and "could not be used" in fake_openai.requests[1]["messages"][-1]["content"]


def test_bad_flag_value_and_unknown_run(agent_cli):
    assert_one_line_error(agent_cli("run", "demo", "--step-delay", "soon"), "--step-delay")
    assert_one_line_error(agent_cli("runs", "show", "no-such-run"), "no run 'no-such-run'")


def test_debug_shows_the_traceback(agent_cli):
    with pytest.raises(Exception, match="unknown model provider"):
        agent_cli("--debug", "run", "demo", "--model", "madeup/model-x")
