"""Read many git objects (blobs by id, or ``commit:path``) through one ``git cat-file --batch``."""

from __future__ import annotations

import subprocess
from pathlib import Path

from sandboxes.errors import UserError


def read_objects(repo: str | Path, names: list[str]) -> list[bytes | None]:
    """Contents of each named object, ``None`` for one the repository does not have (a partial clone) and for a
    name with a line break: the batch reads one name per line, so a file called ``"a\\nb.py"`` would send two names
    and shift every answer after it onto the wrong file."""
    sendable = [name for name in names if "\n" not in name]
    found = iter(_read_batch(repo, sendable))
    return [None if "\n" in name else next(found) for name in names]


def _read_batch(repo: str | Path, names: list[str]) -> list[bytes | None]:
    if not names:
        return []
    result = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch"], capture_output=True,
                            input=("\n".join(names) + "\n").encode("utf-8", "surrogateescape"))
    if result.returncode != 0:
        raise UserError(f"git cat-file --batch failed in {repo}: {result.stderr.decode(errors='replace').strip()}")
    out, position, found = result.stdout, 0, []
    for _ in names:
        header_end = out.index(b"\n", position)
        header = out[position:header_end].split()
        if len(header) != 3 or not header[2].isdigit():  # "<name> missing" / "ambiguous"
            found.append(None)
            position = header_end + 1
            continue
        size = int(header[2])
        found.append(out[header_end + 1: header_end + 1 + size])
        position = header_end + 1 + size + 1
    return found
