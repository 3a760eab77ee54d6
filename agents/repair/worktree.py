"""The agent's sandboxed worktree: a copy of the repository's files that edits go to (the original is never
touched), with a git baseline kept beside it, so the diff it submits is ``git diff`` against the copy's start."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from sandboxes.errors import UserError

from benchmarks.resolve.tree import read_tree

SKIPPED = {".git", "__pycache__", ".venv", ".pytest_cache", ".mypy_cache", "node_modules"}
IDENTITY = {"GIT_AUTHOR_NAME": "agentkiln", "GIT_AUTHOR_EMAIL": "agentkiln@localhost",
            "GIT_COMMITTER_NAME": "agentkiln", "GIT_COMMITTER_EMAIL": "agentkiln@localhost",
            "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z"}


class Worktree:
    """``<folder>/tree`` holds the files; ``<folder>/baseline.git`` the commit they started from."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder).resolve()
        self.root = self.folder / "tree"
        self.git_dir = self.folder / "baseline.git"

    @classmethod
    def create(cls, folder: str | Path, source: str | Path) -> "Worktree":
        """A worktree of ``source``'s files (build and VCS folders left out), unless ``folder`` already has one."""
        tree = cls(folder)
        if tree.git_dir.is_dir():
            return tree
        source = Path(source).expanduser()
        if not source.is_dir():
            raise UserError(f"--repo {source}: not a directory")
        shutil.copytree(source, tree.root, ignore=lambda _dir, names: [n for n in names if n in SKIPPED],
                        symlinks=True, dirs_exist_ok=True)
        tree.git("init", "-q")
        tree.git("add", "-A")
        tree.git("commit", "-q", "--allow-empty", "-m", "baseline")
        return tree

    def git(self, *args: str) -> str:
        env = {**os.environ, **IDENTITY, "GIT_DIR": str(self.git_dir), "GIT_WORK_TREE": str(self.root),
               "GIT_CEILING_DIRECTORIES": str(self.folder)}
        result = subprocess.run(["git", *args], cwd=self.root, capture_output=True, text=True, env=env)
        if result.returncode != 0:
            raise UserError(f"git {args[0]} in the worktree failed: {result.stderr.strip()[:300]}")
        return result.stdout

    def path(self, relative: str) -> Path:
        """``relative`` inside the worktree; a path that leaves it is refused."""
        target = (self.root / relative).resolve()
        if target != self.root and self.root not in target.parents:
            raise UserError(f"{relative}: outside the worktree")
        return target

    def diff(self) -> str:
        """Every change since the baseline (new files included) as a git patch."""
        self.git("add", "-A")
        return self.git("diff", "--cached", "--no-color", "--no-ext-diff", "HEAD")

    def files(self) -> dict[str, bytes]:
        return read_tree(self.root)
