import pytest

from sandboxes.envpolicy import is_secret_name, sandbox_env
from sandboxes.errors import UserError


def test_host_secrets_never_pass(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-host")
    monkeypatch.setenv("SOME_RANDOM_VAR", "host-value")
    env = sandbox_env({"MY_FLAG": "1"}, home="/work", path="/usr/bin", threads=2)
    assert "OPENAI_API_KEY" not in env and "SOME_RANDOM_VAR" not in env
    assert env["MY_FLAG"] == "1" and env["HOME"] == "/work" and env["OMP_NUM_THREADS"] == "2"


def test_caller_may_not_pass_credentials():
    with pytest.raises(UserError):
        sandbox_env({"HF_TOKEN": "x"}, home="/work", path="/usr/bin", threads=1)


@pytest.mark.parametrize("name", ["ANTHROPIC_API_KEY", "GITHUB_TOKEN", "DB_PASSWORD", "AWS_SECRET_ACCESS_KEY"])
def test_secret_names(name):
    assert is_secret_name(name)
    assert not is_secret_name("TRITON_INTERPRET")
