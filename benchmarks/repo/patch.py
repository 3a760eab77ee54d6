"""Unified diffs: which files a patch edits and which lines of the original files it touches."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass
class FileEdit:
    """The edit of one file: its old and new path and the old line numbers it touches."""

    old_path: str | None
    new_path: str | None
    touched: set[int] = field(default_factory=set)

    @property
    def path(self) -> str:
        return self.old_path or self.new_path or ""


def _strip_prefix(name: str) -> str | None:
    name = name.strip().split("\t")[0]
    if name == "/dev/null":
        return None
    return name[2:] if name[:2] in ("a/", "b/") else name


def parse_patch(text: str) -> list[FileEdit]:
    """The file edits of a unified diff, in order.

    Removed lines count as touched; a pure insertion touches the old line it follows (or line 1),
    so that added code is attributed to the unit it lands in.
    """
    edits: list[FileEdit] = []
    lines = text.splitlines()
    old_left = new_left = old_line = 0
    for index, line in enumerate(lines):
        if old_left > 0 or new_left > 0:
            old_left, new_left, old_line = _hunk_line(edits[-1], line, old_left, new_left, old_line)
        elif line.startswith("--- ") and index + 1 < len(lines) and lines[index + 1].startswith("+++ "):
            edits.append(FileEdit(_strip_prefix(line[4:]), _strip_prefix(lines[index + 1][4:])))
        elif (match := _HUNK.match(line)) and edits:
            old_line = int(match.group(1))
            old_left = int(match.group(2) if match.group(2) is not None else 1)
            new_left = int(match.group(4) if match.group(4) is not None else 1)
    return edits


def _hunk_line(edit: FileEdit, line: str, old_left: int, new_left: int, old_line: int) -> tuple[int, int, int]:
    if line.startswith("-"):
        edit.touched.add(old_line)
        return old_left - 1, new_left, old_line + 1
    if line.startswith("+"):
        edit.touched.add(max(old_line - 1, 1))
        return old_left, new_left - 1, old_line
    if line.startswith("\\"):  # "\ No newline at end of file"
        return old_left, new_left, old_line
    return old_left - 1, new_left - 1, old_line + 1


def edited_files(text: str) -> list[str]:
    """Paths of the original files a patch edits (created files are left out, as in LocAgent)."""
    seen: list[str] = []
    for edit in parse_patch(text):
        if edit.old_path and edit.old_path not in seen:
            seen.append(edit.old_path)
    return seen
