"""Where source files come from: a directory on disk or a git commit, with bad input filtered out.

Only Python files are parsed. Binary files, huge files, submodules and files that cannot be read
are reported as skipped (path and reason) and never stop a build.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from sandboxes.errors import UserError
from tools.rpg.files import UnreadableFile, decode_source, read_source_file
from tools.rpg.gitobjects import read_objects

SUBMODULE_MODE = "160000"
SKIP_DIRS = {".git", "__pycache__", ".tox", ".venv", "venv", "node_modules", ".mypy_cache", ".pytest_cache"}


@dataclass
class Skipped:
    path: str
    reason: str


@dataclass
class Listing:
    """The Python files to parse and everything that was skipped on the way."""

    files: dict[str, bytes] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)


def check_content(path: str, data: bytes, max_bytes: int) -> tuple[str | None, str]:
    """``(text, "")`` for good input, ``(None, reason)`` for binary, huge or undecodable files."""
    if len(data) > max_bytes:
        return None, f"huge file ({len(data)} bytes > {max_bytes})"
    if b"\0" in data:
        return None, "binary file"
    try:
        return decode_source(data), ""
    except UnicodeDecodeError:
        return None, "binary file (not UTF-8 text, nor in the encoding its coding line names)"


def git(repo: str | Path, *args: str, input_bytes: bytes | None = None) -> bytes:
    """Run git in ``repo``; a failure becomes a ``UserError`` with git's message."""
    result = subprocess.run(["git", "-C", str(repo), *args], input=input_bytes, capture_output=True)
    if result.returncode != 0:
        raise UserError(f"git {' '.join(args[:2])} failed in {repo}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def resolve_commit(repo: str | Path, rev: str) -> str:
    """The full hash of ``rev``; a missing commit is a ``UserError``."""
    if rev.startswith("-"):
        raise UserError(f"commit {rev!r} starts with '-' (it would be read as an option)")
    try:
        return git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
    except UserError:
        raise UserError(f"commit {rev!r} not found in {repo}") from None


def read_directory(root: str | Path, max_bytes: int) -> Listing:
    """Every ``*.py`` file under ``root``; nested git checkouts (submodules), symbolic links and anything but
    regular files are skipped (see :func:`tools.rpg.files.read_source_file`)."""
    root = Path(root)
    if not root.is_dir():
        raise UserError(f"not a directory: {root}")
    listing = Listing()
    for folder, dirs, names in os.walk(root):
        rel_folder = Path(folder).relative_to(root)
        for name in sorted(dirs):
            if (Path(folder) / name / ".git").exists():
                listing.skipped.append(Skipped((rel_folder / name).as_posix(), "submodule"))
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not (Path(folder) / d / ".git").exists())
        for name in sorted(n for n in names if n.endswith(".py")):
            rel = (rel_folder / name).as_posix()
            try:
                listing.files[rel] = read_source_file(root, rel, max_bytes)
            except UnreadableFile as error:
                listing.skipped.append(Skipped(rel, str(error)))
    return listing


def list_commit(repo: str | Path, commit: str) -> list[tuple[str, str, str]]:
    """``(mode, object id, path)`` for every entry of the tree at ``commit``."""
    out = git(repo, "ls-tree", "-r", "-z", commit)
    entries = []
    for record in filter(None, out.split(b"\0")):
        meta, path = record.split(b"\t", 1)
        mode, _, oid = meta.decode().split()
        entries.append((mode, oid, path.decode("utf-8", "surrogateescape")))
    return entries


def read_commit(repo: str | Path, commit: str, paths: set[str] | None = None) -> Listing:
    """The Python files at ``commit`` (all, or only ``paths``); submodules and blobs missing from a
    partial clone are reported as skipped."""
    listing = Listing()
    wanted = []
    for mode, oid, path in list_commit(repo, commit):
        if mode == SUBMODULE_MODE:
            if paths is None or path in paths:
                listing.skipped.append(Skipped(path, "submodule"))
        elif path.endswith(".py") and (paths is None or path in paths):
            wanted.append((oid, path))
    for (oid, path), data in zip(wanted, read_objects(repo, [oid for oid, _ in wanted])):
        if data is None:
            listing.skipped.append(Skipped(path, "blob missing from the clone"))
        else:
            listing.files[path] = data
    return listing
