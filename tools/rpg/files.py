"""Reading a repository's source files from disk: regular files inside the root only, sized before they
are read, and split into lines the way Python numbers them.

A repository is untrusted input. A symbolic link could hand the graph (and the model reading it) a
file outside the repository, such as ``~/.aws/credentials``; a link to ``/dev/zero`` or a FIFO would
exhaust memory or block the reader. Links are never followed (as in git mode, where a link is a blob
holding its target's name), and only regular files are read.
"""

from __future__ import annotations

import io
import os
import re
import stat
import tokenize
from pathlib import Path

_NEWLINE = re.compile(r"\r\n|\r|\n")
MAX_SOURCE_BYTES = 2_000_000
"""Files larger than this are not read (a source file that size is generated data, not code to localise in)."""


class UnreadableFile(Exception):
    """A file that is not read; the message says why (symbolic link, not a regular file, too large...)."""


def source_lines(text: str) -> list[str]:
    """The lines of source ``text`` as the parser numbers them: only ``\\n``, ``\\r\\n`` and ``\\r`` end a line
    (``str.splitlines`` also splits at form feeds and U+2028, which would shift every later line number)."""
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def decode_source(data: bytes) -> str:
    """Source bytes as text, in the encoding Python reads them in: UTF-8, a UTF-8 byte-order mark, or a PEP 263
    ``# -*- coding: ... -*-`` line. ``UnicodeDecodeError`` when they are not text in it."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:  # an unknown or contradictory coding line
        raise UnicodeDecodeError("utf-8", data, 0, 1, str(error)) from None
    return data.decode(encoding)


def read_source_file(root: str | Path, relative: str, max_bytes: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of ``root/relative``; ``UnreadableFile`` if it leaves the root, passes through a symbolic link,
    is not a regular file or is larger than ``max_bytes``."""
    parts = Path(relative).parts
    if not parts or Path(relative).is_absolute() or ".." in parts:
        raise UnreadableFile("outside the repository")
    folder = Path(root)
    for part in parts[:-1]:
        folder = folder / part
        if folder.is_symlink():
            raise UnreadableFile("inside a symbolic link (not followed)")
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(folder / parts[-1], flags)
    except OSError as error:
        if os.path.islink(folder / parts[-1]):
            raise UnreadableFile("symbolic link (not followed)") from None
        raise UnreadableFile(f"unreadable: {error.strerror}") from None
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile("not a regular file")
        if info.st_size > max_bytes:
            raise UnreadableFile(f"huge file ({info.st_size} bytes > {max_bytes})")
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise UnreadableFile(f"huge file (more than {max_bytes} bytes)")
    return data
