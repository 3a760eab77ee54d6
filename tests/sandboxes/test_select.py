import logging

import pytest

from sandboxes.errors import UserError
from sandboxes.select import docker_answers, get_sandbox


def test_local_by_name_is_shared():
    assert get_sandbox("local") is get_sandbox("LOCAL")
    assert get_sandbox("local").name == "local"


def test_unknown_backend_is_a_user_error():
    with pytest.raises(UserError, match="unknown sandbox backend"):
        get_sandbox("vm")


def test_auto_logs_its_choice(caplog):
    caplog.set_level(logging.INFO, logger="sandboxes.select")
    sandbox = get_sandbox("auto")
    expected = "docker" if docker_answers() is None else "local"
    assert sandbox.name == expected
    assert f"sandbox auto-selection: {expected}" in caplog.text


def test_environment_variable_picks_the_backend(monkeypatch):
    monkeypatch.setenv("AGENT_SANDBOX", "local")
    assert get_sandbox().name == "local"


def test_a_sandbox_that_cannot_run_a_trivial_job_is_one_line_with_the_fix():
    import dataclasses

    from sandboxes.local import LocalSandbox
    from sandboxes.select import prove

    broken = LocalSandbox()
    broken.caps = dataclasses.replace(broken.caps, bwrap=False, unshare=True, unshare_map="--no-such-option")
    with pytest.raises(UserError) as refused:
        prove(broken, "local")
    message = str(refused.value)
    assert message.startswith("the local sandbox cannot run a trivial job (") and "\n" not in message
    assert "unshare" in message and "fix: install bubblewrap (apt-get install bubblewrap)" in message
    broken.close()


def test_a_working_sandbox_is_proved_and_warns_only_about_lacking_safety(caplog):
    from sandboxes.guarantees import safety_warnings
    from sandboxes.select import prove

    sandbox = get_sandbox("local")
    with caplog.at_level(logging.WARNING, logger="sandboxes.select"):
        prove(sandbox, "local")
    assert [r.getMessage() for r in caplog.records] == [f"warning: {line}" for line in safety_warnings(sandbox.caps)]
