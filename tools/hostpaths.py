"""Which files on this machine the host-side tools may touch, whatever path a model asks for.

Tools that read or write host files (kernel task files, layouts, model and activation files) resolve
every model-chosen path through a :class:`HostPaths`: reading is allowed under the built-in suites and the
session's work directory, writing only under the work directory. Symlinks are resolved first, and a path
outside is refused with the same words whether or not it exists, so a refusal reveals nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from sandboxes.errors import UserError

BUILTIN_ROOTS = (Path(__file__).resolve().parents[1] / "benchmarks",)
"""The shipped suites and their data (kernel tasks, DRC layouts, heuristic instances)."""


class HostPaths:
    """The folders a tool may read (built-in suites and ``workdir``) and write (``workdir`` only)."""

    def __init__(self, workdir: str | Path | None = None) -> None:
        self.workdir = Path(os.path.realpath(workdir)) if workdir else None
        """The session's work directory (None: nothing may be written, only the built-in suites read)."""

    def readable(self, path: str) -> Path:
        """``path`` (relative paths are taken in the work directory), resolved, if a tool may read it."""
        resolved = self._resolve(path)
        roots = [*BUILTIN_ROOTS, *([self.workdir] if self.workdir else [])]
        if not any(_inside(resolved, root) for root in roots):
            raise UserError(f"{path}: a tool may only read files under {self._describe(roots)}")
        return resolved

    def writable(self, path: str) -> Path:
        """``path`` resolved, if a tool may write it (inside the work directory, which is created)."""
        resolved = self._resolve(path)
        if self.workdir is None or not _inside(resolved, self.workdir) or resolved == self.workdir:
            where = f"the work directory {self.workdir}" if self.workdir else "a work directory (none is set)"
            raise UserError(f"{path}: a tool may only write files inside {where}")
        resolved.parent.mkdir(parents=True, exist_ok=True)
        return resolved

    def _resolve(self, path: str) -> Path:
        if not isinstance(path, str) or not path or "\0" in path:
            raise UserError(f"{path!r} is not a path")
        base = self.workdir or Path.cwd()
        return Path(os.path.realpath(base / Path(path).expanduser()))

    def _describe(self, roots: list[Path]) -> str:
        text = ", ".join(str(root) for root in roots)
        return text if self.workdir else f"{text} (no work directory is set)"


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents
