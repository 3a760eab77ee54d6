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


@pytest.mark.parametrize("argv, fragment", [
    (("run", "demo", "--max-calls", "-1"), "Invalid value for '--max-calls'"),
    (("run", "demo", "--max-cost-usd", "-0.5"), "Invalid value for '--max-cost-usd'"),
    (("run", "demo", "--step-delay", "-1"), "Invalid value for '--step-delay'"),
    (("run", "compress", "--steps", "prune:0.5,quant:-4"), "bad step 'quant:-4': quant takes a whole number of bits"),
    (("run", "compress", "--steps", "lowrank:1.5"), "lowrank takes a kept-parameter ratio in (0, 1]"),
    (("run", "evokernel", "--target", "tpu", "--model", "offline"), "unknown target 'tpu'"),
    (("run", "evokernel", "--target", "cpu", "--tasks", "builtin:L1:relu", "--model", "offline"),
     "offline policy needs template kernels"),
    (("run", "evokernel", "--tasks", "builtin:L1:no_such_op", "--model", "offline"), "no_such_op"),
    (("run", "rpg", "--repo", "no-such-folder"), "not a directory: no-such-folder"),
    (("run", "pathwise", "--budget", "-3", "--model", "offline"), "invalid setting pathwise.budget (--budget)"),
    (("run", "evokernel", "--shape-scale", "0", "--model", "offline"), "invalid setting evokernel.shapes.scale"),
    (("run", "evokernel", "--timeout", "0", "--model", "offline"), "invalid setting evokernel.evaluation.timeout_s"),
    (("bench", "sae-l0", "--k-max", "0"), "Invalid value for '--k-max'"),
])
def test_bad_input_is_refused_before_a_run_directory_exists(agent_cli, tmp_path, argv, fragment):
    assert_one_line_error(agent_cli(*argv), fragment)
    assert not (tmp_path / "runs").exists() or list_run_ids() == []


def test_a_negative_limit_from_the_environment_names_the_variable(agent_cli, monkeypatch):
    monkeypatch.setenv("AGENT_MAX_CALLS", "-2")
    assert_one_line_error(agent_cli("run", "demo"), "invalid setting run.max_calls (AGENT_MAX_CALLS)")
    assert list_run_ids() == []


def test_a_memory_file_that_is_not_one_is_one_line_and_creates_no_run(agent_cli, tmp_path):
    (tmp_path / "notes.sqlite").write_text("shopping list: eggs, milk\n" * 20)
    assert_one_line_error(agent_cli("memory", "stats", str(tmp_path / "notes.sqlite")),
                          "notes.sqlite is not a usable SQLite memory (file is not a database)")
    result = agent_cli("run", "evokernel", "--tasks", "builtin:L1:relu", "--memory", str(tmp_path / "notes.sqlite"),
                       "--model", "offline")
    assert_one_line_error(result, "is not a usable SQLite memory")
    assert list_run_ids() == [] and (tmp_path / "notes.sqlite").read_text().startswith("shopping list")


def test_an_unknown_provider_is_refused_without_importing_litellm_langgraph_or_torch(modules_loaded_by):
    statements = ("import contextlib, io\nfrom agents.cli.app import main\n"
                  "with contextlib.redirect_stderr(io.StringIO()), contextlib.suppress(SystemExit):\n"
                  "    main(['run', 'demo', '--model', 'madeup/model-x'])")
    assert modules_loaded_by(statements, ("litellm", "langgraph", "torch")) == []  # each takes seconds to import
