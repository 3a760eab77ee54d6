"""A repository's files at a commit in a scratch folder, patches applied to it, and its files read back.

The files come out of the cached bare clone with ``git archive``. Patches are applied the way SWE-bench's
harness tries them (``git apply``, then ``patch --fuzz=5``), never reaching outside the
folder: git is told not to look for a repository above it.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from sandboxes.errors import UserError

APPLY_COMMANDS = (("git", "apply", "--verbose"), ("patch", "--batch", "--forward", "--fuzz=5", "--no-backup-if-mismatch", "-p1", "-i"))
"""SWE-bench's ``GIT_APPLY_CMDS`` without ``--3way`` (it needs the repository's objects) and ``--reject`` (it
leaves a half-applied tree for the next command to patch again)."""
MAX_TREE_BYTES = 512 * 1024 * 1024


@dataclass
class Applied:
    """Whether a patch applied, with which command, and what the commands said."""

    ok: bool
    command: str
    log: str


def export_tree(clone: Path, commit: str, dest: Path) -> None:
    """Write the files of ``commit`` (from the bare ``clone``) into ``dest``."""
    result = subprocess.run(["git", "-C", str(clone), "archive", "--format=tar", commit], capture_output=True)
    if result.returncode != 0:
        raise UserError(f"git archive {commit[:12]} failed: {result.stderr.decode(errors='replace').strip()}")
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(result.stdout)) as archive:
        archive.extractall(dest, filter="data")


def apply_patch(dest: Path, patch: str, name: str) -> Applied:
    """Apply ``patch`` to the files in ``dest``; the first command that succeeds wins."""
    patch_file = dest.parent / f"{dest.name}.{name}.diff"
    patch_file.write_text(patch if patch.endswith("\n") else patch + "\n")
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(dest.parent)}
    log = []
    try:
        for command in APPLY_COMMANDS:
            argv = [*command, str(patch_file)]
            result = subprocess.run(argv, cwd=dest, capture_output=True, text=True, env=env)
            log.append(f"$ {' '.join(command)} {name}.diff\n{result.stdout}{result.stderr}".rstrip())
            if result.returncode == 0:
                return Applied(True, " ".join(command), "\n".join(log))
            _drop_rejects(dest)
        return Applied(False, "", "\n".join(log))
    finally:
        patch_file.unlink(missing_ok=True)


def _drop_rejects(dest: Path) -> None:
    """Remove the ``.rej`` files a failed attempt left (they are no part of the checkout)."""
    for path in dest.rglob("*.rej"):
        path.unlink(missing_ok=True)


def read_tree(dest: Path) -> dict[str, bytes]:
    """Every regular file under ``dest`` by relative path (symbolic links are left out)."""
    files, total = {}, 0
    for path in sorted(dest.rglob("*")):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            total += len(data)
            if total > MAX_TREE_BYTES:
                raise UserError(f"the checkout under {dest} is larger than {MAX_TREE_BYTES >> 20} MiB")
            files[path.relative_to(dest).as_posix()] = data
    return files
