import pytest

from sandboxes.envpolicy import check_exec, is_secret_name, sandbox_env
from sandboxes.errors import UserError
from tests.sandboxes.conftest import SMALL


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


def test_search_paths_keep_only_absolute_folders(monkeypatch):
    monkeypatch.setenv("LD_LIBRARY_PATH", "/usr/local/cuda/lib64:")
    env = sandbox_env({"PYTHONPATH": "/code::lib"}, home="/work", path="/usr/bin:.", threads=1)
    assert env["LD_LIBRARY_PATH"] == "/usr/local/cuda/lib64" and env["PYTHONPATH"] == "/code"
    assert env["PATH"] == "/usr/bin"
    monkeypatch.setenv("LD_LIBRARY_PATH", ":")
    assert "LD_LIBRARY_PATH" not in sandbox_env(None, home="/work", path="/usr/bin", threads=1)


def test_the_loader_never_searches_the_work_dir(any_sandbox, monkeypatch):
    """A host's LD_LIBRARY_PATH with a trailing colon made the loader look in the current directory (the job's
    work dir) first: a libz.so.1 planted there replaced the system's in every later program of the run."""
    monkeypatch.setenv("LD_LIBRARY_PATH", "/usr/local/cuda/lib64:")
    result = any_sandbox.run(["sh", "-c", "LD_DEBUG=libs /bin/true 2>&1 | grep -m1 'search path='"], limits=SMALL)
    searched = result.stdout.split("search path=")[1].split()[0].split(":")
    assert searched and all(folder.startswith("/") for folder in searched), result.stdout


@pytest.mark.parametrize("argv, env, message", [
    ([], {}, "empty"), (["echo", "x" * 200_000], {}, "argument 1 is 200,000 bytes"),
    (["echo", "a\0b"], {}, "NUL"), (["true"], {"A=B": "1"}, "not valid"), (["true"], {"A": "x\0"}, "NUL"),
    (["true"], {"BIG": "x" * 131_072}, "environment variable BIG"), (["true", *["x" * 100_000] * 11], {}, "1 MiB"), (["true", *["a"] * 300_000], {}, "1 MiB")])
def test_a_command_execve_would_refuse_is_a_user_error(argv, env, message):
    with pytest.raises(UserError, match=message):
        check_exec(argv, env)


def test_both_backends_refuse_such_a_command_before_running_it(any_sandbox):
    """A 200 KB argument raised OSError on the local backend and came back as a sandbox failure (its warm container
    thrown away) on the docker one."""
    for argv, env in ((["echo", "x" * 200_000], None), (["echo", "a\0b"], None), (["true"], {"A=B": "1"})):
        with pytest.raises(UserError):
            any_sandbox.run(argv, env=env, limits=SMALL)
    assert any_sandbox.run(["echo", "x" * 100_000], limits=SMALL).stdout == "x" * 100_000 + "\n"
