"""Configurations of `agent run rpg` and `agent bench repo` (cheap to import: the CLI builds them)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from benchmarks.repo.harness import RepoBenchConfig
from sandboxes.settings import Config


class RunRPGConfig(Config):
    """One `agent run rpg` ([rpg] in agentkiln.toml)."""

    repo: str = "."
    """The repository (a git checkout, or any folder of Python code)."""
    commit: str | None = None
    """Encode this commit (git repositories; default HEAD). Plain folders are read from disk."""
    graph: str | None = None
    """Graph file (.json or .sqlite): updated incrementally from git when it exists, written afterwards."""
    issue: str | None = None
    """Issue text to localise once the graph is ready."""
    lifter: Literal["auto", "offline", "model"] = "auto"
    """Semantic lifting: the model when one is configured (auto), or the offline lifter."""


class BenchRepoConfig(Config):
    """One `agent bench repo` run ([bench_repo] in agentkiln.toml)."""

    instances: str = "demo"
    """SWE-bench JSON/JSONL file of instances, or ``demo`` for the built-in demo repository."""
    localizer: str = "rpg"
    """``rpg`` (the agent; its offline policy without a model), ``bm25``, or ``predictions:FILE``."""
    exclude: str | None = None
    """A file of instance ids (one per line) to leave out."""
    limit: int | None = None
    """Evaluate only the first N instances."""
    export: str | None = None
    """Also write the predictions in SWE-bench's format to this JSONL file."""
    executor: str | None = None
    """Where instances are localised: local (this process), ray (the Ray cluster at RAY_ADDRESS, else a new local
    instance) or ray://HOST:PORT, one job per repository; None: AGENT_EXECUTOR, else local. Offline localisers
    only; the outcomes file and the report stay in this process."""
    bench: RepoBenchConfig = Field(default_factory=RepoBenchConfig)
    """Harness settings: ks, workers, cache and mirrors."""
