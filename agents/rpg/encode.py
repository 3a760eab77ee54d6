"""Encode a repository, or bring a saved graph up to date from git: the entry point for CLIs and
interactive sessions (``open_workspace`` gives the navigation tools a ready graph)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sandboxes.errors import UserError

from agents.rpg.build import BuildStats, EncodeConfig, Lifter, build_rpg
from agents.rpg.evolve import evolve
from agents.rpg.lift_model import ModelLifter
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.source import git, read_commit, read_directory, resolve_commit
from agents.runtime.models.base import ChatModel
from memory.rpg import store
from memory.rpg.graph import RPG
from tools.rpg.files import read_source_file, source_lines
from tools.rpg.workspace import RPGWorkspace


@dataclass
class Encoded:
    rpg: RPG
    stats: BuildStats
    mode: str
    """``full build``, ``loaded`` or ``incremental from <commit>``."""
    lifter: str


def is_git(path: Path) -> bool:
    return (path / ".git").exists()


def choose_lifter(kind: str, model: ChatModel | None, repo: Path, commit: str | None) -> Lifter:
    """``offline``, ``model``, or ``auto`` (the model when there is one)."""
    if kind == "offline" or (kind == "auto" and model is None):
        return OfflineLifter()
    if model is None:
        raise UserError("--lifter model needs a model (pass --model or set AGENT_MODEL)")
    if commit:
        return ModelLifter(model, lambda p: source_lines(git(repo, "show", f"{commit}:{p}").decode(errors="replace")))
    return ModelLifter(model, lambda p: source_lines(read_source_file(repo, p).decode(errors="replace")))


def encode_repository(repo: str | Path, *, commit: str | None = None, graph: str | Path | None = None,
                      lifter: Lifter | None = None, config: EncodeConfig | None = None) -> Encoded:
    """Build the RPG of ``repo`` (a commit of a git repository, else the folder on disk).

    When ``graph`` names a saved graph of the same git repository, it is loaded and evolved to the
    commit instead of rebuilt. The result is saved back to ``graph``.
    """
    repo = Path(repo).resolve()
    config = config or EncodeConfig()
    target = resolve_commit(repo, commit or "HEAD") if is_git(repo) else None
    lifter = lifter or OfflineLifter()
    saved = Path(graph) if graph else None
    previous = store.load(saved) if saved and saved.is_file() else None
    if previous is not None and target and previous.commit:
        mode = "loaded" if previous.commit == target else f"incremental from {previous.commit[:12]}"
        stats = BuildStats() if previous.commit == target else evolve(previous, str(repo), target, lifter, config)
        rpg = previous
    else:
        listing = read_commit(repo, target) if target else read_directory(repo, config.max_file_bytes)
        rpg, stats = build_rpg(listing, lifter, config, name=repo.name, commit=target or "")
        mode = "full build"
    if saved:
        store.save(rpg, saved)
    return Encoded(rpg, stats, mode, lifter.policy)


def open_workspace(repo: str | Path, graph: str | Path | None = None) -> RPGWorkspace:
    """A navigation workspace over ``repo`` (offline lifter; reuses and updates ``graph`` if given)."""
    encoded = encode_repository(repo, graph=graph)
    root = Path(repo).resolve()
    return RPGWorkspace(encoded.rpg, repo=root) if encoded.rpg.commit else RPGWorkspace(encoded.rpg, root=root)
