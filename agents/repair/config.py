"""Configurations of `agent bench resolve` and `agent run repair` (cheap to import: the CLI builds them)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from benchmarks.resolve.harness import ResolveConfig
from sandboxes.settings import Config

GENERATED = "generated"
"""The ``--instances`` value naming the shipped benchmark (written into the run on first use)."""


class BenchResolveConfig(Config):
    """One `agent bench resolve` run ([bench_resolve] in agentkiln.toml)."""

    instances: str = GENERATED
    """SWE-bench JSON/JSONL instances (fields at the top level or under ``meta_data``), or ``generated``."""
    predictions: str | None = None
    """SWE-bench predictions file (JSONL/JSON), or ``gold`` / ``empty`` (the sanity baselines); None when
    ``agent`` or ``agent_cmd`` makes them."""
    agent: Literal["repair"] | None = None
    """Make the predictions with agentkiln's repair agent (it needs a model)."""
    agent_cmd: str | None = None
    """Make them with an external command, run in a worktree of each instance (see agents.repair.external)."""
    repair_max_steps: int = Field(30, ge=1)
    """Model turns of the repair agent on one instance."""
    backend: Literal["local", "swebench"] = "local"
    """``local``: this harness (venvs, the sandbox); ``swebench``: SWE-bench's own Docker harness."""
    ids: list[str] = Field(default_factory=list)
    """Only these instance ids (empty: all)."""
    limit: int | None = Field(None, ge=1)
    """Only the first N instances."""
    harness: ResolveConfig = Field(default_factory=ResolveConfig)
    """Workers, caches, specs, sandbox and limits of the evaluation."""


class RunRepairConfig(Config):
    """One `agent run repair` ([repair] in agentkiln.toml)."""

    repo: str = "."
    """The repository to repair (a folder; a git checkout's working files are used as they are)."""
    issue: str = ""
    """The issue text."""
    test_cmd: str = "python -m pytest -q -p no:cacheprovider"
    """The command the agent's run_tests tool runs in the sandbox (test paths may be added by the agent)."""
    max_steps: int = Field(30, ge=1)
    """Model turns before the agent must stop (it then submits what it has)."""
    yes: bool = False
    """Approve the agent's sandboxed calls (edits of the worktree, test runs) without asking; otherwise each
    pauses the run for approval, as in chat."""
    env_bin: str | None = None
    """``bin`` folder of the environment the tests run with (None: this Python's)."""
    readonly: list[str] = Field(default_factory=list)
    """Host folders the sandbox shows read-only (the environment's; empty: this Python's installation)."""
    sandbox: str | None = None
    """Sandbox backend of the test runs (docker, local, auto); None = AGENT_SANDBOX or auto."""
    test_wall_s: float = Field(300, gt=0)
    """Wall-clock limit of one test run."""
    rpg: bool = True
    """Encode the repository for the RPG navigation tools (search_node, fetch_node, explore_rpg)."""
