"""Shared fixtures: an isolated agent environment, the `agent` CLI in-process, a fake OpenAI server, a DRC runner;
and skips for tests that need a system tool this machine lacks (markers ``klayout``, ``docker``, ``bwrap``,
``nvcc``, ``gpu``, see tests/system_tools.py): the reason names the tool and how to install it, and ``-ra`` lists
it in the summary."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterator

import pytest

from tests.fakes.openai_server import FakeOpenAIServer
from tests.system_tools import SYSTEM_TOOLS, missing_tool, require_tool
from tests.warm_builds import WarmBuilds, builds_of, will_run

WARM_BUILDS = pytest.StashKey[WarmBuilds]()

PROVIDER_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "OLLAMA_API_BASE")


@pytest.fixture
def isolated_agent_env(tmp_path, monkeypatch):
    """Work in ``tmp_path``: runs and caches there, no AGENT_* settings, no provider keys, no agentkiln.toml."""
    for name in list(os.environ):
        if name.startswith("AGENT_") or name in PROVIDER_KEYS:
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AGENT_RUNS_DIR", str(tmp_path / "runs"))
    monkeypatch.setenv("AGENT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    return tmp_path


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def agent_cli(capsys) -> Callable[..., CliResult]:
    """Run the `agent` CLI in this process: ``agent_cli("run", "demo")`` → exit code, stdout, stderr."""
    from agents.cli.app import main

    def invoke(*args: str) -> CliResult:
        capsys.readouterr()
        try:
            main(list(args))
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAIServer]:
    """A started fake OpenAI-compatible server; put replies in ``.replies``, read ``.requests``."""
    with FakeOpenAIServer() as server:
        yield server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark a test to be skipped, with the reason, when it carries a system tool's marker and the tool is missing
    (the summary then names the test itself)."""
    for item in items:
        reasons = [missing_tool(m) for m in SYSTEM_TOOLS if item.get_closest_marker(m) is not None]
        reason = next((r for r in reasons if r), None)
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))


def warm_builds(config: pytest.Config) -> WarmBuilds:
    """The session's warm builds (tests/warm_builds.py), made on first use."""
    if WARM_BUILDS not in config.stash:
        config.stash[WARM_BUILDS] = WarmBuilds()
    return config.stash[WARM_BUILDS]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the warm builds of the tests that will run, in their order."""
    builds = [build for item in session.items if will_run(item) for build in builds_of(item)]
    if builds:
        warm_builds(session.config).start(builds)


def pytest_unconfigure(config: pytest.Config) -> None:
    if WARM_BUILDS in config.stash:
        config.stash[WARM_BUILDS].close()


@pytest.fixture(autouse=True)
def _warm_builds_done(request):
    """A test marked ``warm_build`` starts once its background builds have finished."""
    builds = builds_of(request.node)
    if builds:
        warm_builds(request.config).wait(builds)


@pytest.fixture(scope="session")
def warm_cache(request):
    """The build cache the warm builds fill (under the default root, which sandboxes can see)."""
    return warm_builds(request.config).cache


@pytest.fixture(scope="session")
def drc_runner():
    """A DRC runner on the local sandbox (skips without Debian's klayout binary)."""
    from sandboxes.select import get_sandbox
    from tools.drc.runner import DrcRunner, DrcRunnerConfig

    require_tool("klayout")
    return DrcRunner(get_sandbox("local"), DrcRunnerConfig(job_timeout_s=3.0))
