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
