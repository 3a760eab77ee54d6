"""Repositories at base_commit: one cached bare clone per repository, read through git objects.

A repository is found as a local path (the instance's ``repo`` itself, or ``owner__name`` /
``name`` under a mirrors folder) or, when cloning is allowed, at ``https://github.com/<repo>``.
Many instances share one clone. Localisers get a :class:`Snapshot` (the clone and a commit) and read
the files they need from git objects, so a blob missing from a partial clone only matters if it is
read; a detached worktree per commit is still available for tools that need files on disk.
"""

from __future__ import annotations

import re
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from sandboxes.errors import UserError


def subcommand(args: tuple[str, ...]) -> str:
    """The git subcommand of an argument list (``worktree`` in ``-C DIR worktree add ...``)."""
    position = 0
    while position < len(args) and args[position].startswith("-"):
        position += 2 if args[position] in ("-C", "-c") else 1
    return " ".join(args[position:position + 2]) if position < len(args) else "(none)"


def _git(*args: str, cwd: Path | None = None) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        detail = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else f"exit {result.returncode}"
        raise UserError(f"git {subcommand(args)} failed: {detail}")
    return result.stdout


def _python_blobs(listing: bytes) -> list[tuple[str, str]]:
    """``(path, blob id)`` of the ``*.py`` blobs in ``git ls-tree -r -z`` output."""
    found = []
    for record in filter(None, listing.split(b"\0")):
        meta, path = record.split(b"\t", 1)
        _, kind, oid = meta.decode().split()
        name = path.decode("utf-8", "surrogateescape")
        if kind == "blob" and name.endswith(".py"):
            found.append((name, oid))
    return found


@dataclass(frozen=True)
class Snapshot:
    """A repository at one commit: the bare clone to read objects from, and the commit."""

    repo: str
    """The instance's repository name (``owner/name``), the key under which graphs are reused."""
    clone: Path
    """The bare clone holding the commit."""
    commit: str
    """The full commit hash."""


def slug(repo: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "__", repo.strip("/")).strip("_")[-80:]


class RepoCache:
    """Bare clones under ``root/mirrors`` and worktrees under ``root/worktrees``."""

    def __init__(self, root: str | Path, mirrors: str | Path | None = None, allow_clone: bool = False):
        self.root = Path(root).resolve()
        self.mirrors = Path(mirrors) if mirrors else None
        self.allow_clone = allow_clone
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()

    def _lock(self, key: str) -> threading.RLock:
        with self._guard:
            return self._locks.setdefault(key, threading.RLock())

    def origin(self, repo: str) -> str | None:
        """Where ``repo`` can be cloned from, or ``None``."""
        candidates = [Path(repo)]
        if self.mirrors:
            candidates += [self.mirrors / slug(repo), self.mirrors / repo.split("/")[-1], self.mirrors / repo]
        for candidate in candidates:
            if (candidate / ".git").exists() or (candidate / "HEAD").is_file():
                return str(candidate.resolve())
        if not self.allow_clone:
            return None
        if "://" in repo or repo.startswith("git@"):
            return repo
        return f"https://github.com/{repo}.git" if "/" in repo else None

    def clone(self, repo: str) -> Path:
        """The cached bare clone of ``repo`` (made on first use)."""
        target = self.root / "mirrors" / f"{slug(repo)}.git"
        with self._lock(str(target)):
            if not (target / "HEAD").is_file():
                origin = self.origin(repo)
                if origin is None:
                    raise UserError(f"repository {repo} is not available locally (give --repos DIR or allow cloning)")
                target.parent.mkdir(parents=True, exist_ok=True)
                _git("clone", "--bare", "--quiet", origin, str(target))
        return target

    def has_commit(self, repo: str, commit: str) -> bool:
        result = subprocess.run(["git", "-C", str(self.clone(repo)), "cat-file", "-e", f"{commit}^{{commit}}"],
                                capture_output=True)
        return result.returncode == 0

    def snapshot(self, repo: str, commit: str) -> Snapshot:
        """``repo`` at ``commit`` (the commit must exist in the clone)."""
        clone = self.clone(repo)
        if not self.has_commit(repo, commit):
            raise UserError(f"commit {commit} is missing from {repo}")
        return Snapshot(repo, clone, _git("-C", str(clone), "rev-parse", f"{commit}^{{commit}}").strip())

    def commit_times(self, repo: str, commits: list[str]) -> dict[str, int]:
        """Committer time (Unix seconds) of each commit present in the clone; missing ones are left out."""
        clone, times = self.clone(repo), {}
        for commit in dict.fromkeys(commits):
            result = subprocess.run(["git", "-C", str(clone), "show", "-s", "--format=%ct", f"{commit}^{{commit}}"],
                                    capture_output=True, text=True)
            if result.returncode == 0 and result.stdout.strip().isdigit():
                times[commit] = int(result.stdout.strip())
        return times

    def python_trees(self, repo: str, commits: list[str]) -> dict[str, frozenset[tuple[str, str]]]:
        """The Python files of each commit present in the clone, as ``(path, blob id)`` pairs (what a graph
        of the commit reads); missing commits are left out."""
        clone, trees = self.clone(repo), {}
        for commit in dict.fromkeys(commits):
            result = subprocess.run(["git", "-C", str(clone), "ls-tree", "-r", "-z", f"{commit}^{{tree}}"],
                                    capture_output=True)
            if result.returncode == 0:
                trees[commit] = frozenset(_python_blobs(result.stdout))
        return trees

    def reader(self, repo: str, commit: str):
        """A function ``path -> text or None`` reading files at ``commit`` from the clone."""
        clone = self.clone(repo)
        if not self.has_commit(repo, commit):
            raise UserError(f"commit {commit} is missing from {repo}")

        def read(path: str) -> str | None:
            result = subprocess.run(["git", "-C", str(clone), "show", f"{commit}:{path}"], capture_output=True)
            return result.stdout.decode("utf-8", "replace") if result.returncode == 0 else None
        return read

    def worktree(self, repo: str, commit: str) -> Path:
        """A detached worktree of ``repo`` at ``commit``, shared by every instance on that commit."""
        clone = self.clone(repo)
        target = self.root / "worktrees" / slug(repo) / commit[:16]
        with self._lock(str(clone)):
            if not (target / ".git").exists():
                if not self.has_commit(repo, commit):
                    raise UserError(f"commit {commit} is missing from {repo}")
                target.parent.mkdir(parents=True, exist_ok=True)
                _git("-C", str(clone), "worktree", "add", "--detach", "--force", str(target), commit)
        return target
