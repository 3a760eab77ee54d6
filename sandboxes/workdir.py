"""Put files into a work directory and read them back, never following a symlink either way."""

from __future__ import annotations

import base64
import errno
import os
import re
import stat
import time
from pathlib import PurePosixPath
from typing import Iterable, Iterator, Mapping, Sequence

from sandboxes.errors import UserError

MAX_NOTES = 20
MAX_DEPTH = 64
"""Folders deeper than this below a work dir are neither collected nor counted."""


def check_relative(path: str) -> PurePosixPath:
    """Validate a work-dir path: relative, no ``..``, not empty."""
    rel = PurePosixPath(path)
    if rel.is_absolute() or not rel.parts or ".." in rel.parts or str(rel) == ".":
        raise UserError(f"sandbox file path must be relative and stay inside the work dir: {path!r}")
    return rel


def _open_dir(root_fd: int, parts: Sequence[str], create: bool, owner: tuple[int, int] | None) -> int:
    """Open the directory ``parts`` below ``root_fd`` component by component with O_NOFOLLOW."""
    fd = os.dup(root_fd)
    try:
        for part in parts:
            if create:
                try:
                    os.mkdir(part, 0o755, dir_fd=fd)
                    if owner:
                        os.chown(part, *owner, dir_fd=fd, follow_symlinks=False)
                except FileExistsError:
                    pass
            next_fd = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = next_fd
    except OSError:
        os.close(fd)
        raise
    return fd


def write_files(root: str, files: Mapping[str, bytes], owner: tuple[int, int] | None = None) -> None:
    """Write ``files`` (relative path -> bytes) below ``root``; an existing symlink is replaced, not followed."""
    root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for path, data in files.items():
            rel = check_relative(path)
            try:
                parent = _open_dir(root_fd, rel.parts[:-1], create=True, owner=owner)
            except OSError as error:
                raise UserError(f"cannot write sandbox file {path!r}: {error.strerror}") from error
            try:
                _write_one(parent, rel.name, bytes(data), owner)
            except OSError as error:
                what = "a folder of that name is in the work dir" if error.errno == errno.EEXIST else error.strerror
                raise UserError(f"cannot write sandbox file {path!r}: {what}") from error
            finally:
                os.close(parent)
    finally:
        os.close(root_fd)


def _write_one(dir_fd: int, name: str, data: bytes, owner: tuple[int, int] | None) -> None:
    try:
        if not stat.S_ISDIR(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode):
            os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=dir_fd)
    try:
        if owner:
            os.fchown(fd, *owner)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def glob_regex(pattern: str) -> re.Pattern[str]:
    """Translate a glob (``*``, ``?``, ``**``, ``[...]``) on relative POSIX paths into a regex."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 1:]:
            end = pattern.index("]", i + 1)
            out.append("[" + pattern[i + 1:end].replace("!", "^", 1) + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def _entries(root: str) -> Iterator[tuple[str | None, int, str]]:
    """Yield (relative path, dir fd, name) of every entry below ``root`` but folders, without entering symlinks,
    and ``(None, -1, "")`` before each folder is read (a tree of folders alone still lets the caller stop).

    Iterative, one folder open at a time (each reopened from the root component by component, never through
    a symlink), and no deeper than MAX_DEPTH folders: a deep tree can neither exhaust the stack nor the
    descriptors, nor cost more than MAX_DEPTH opens per folder.
    """
    root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    pending: list[tuple[str, ...]] = [()]
    try:
        while pending:
            parts = pending.pop()
            yield None, -1, ""
            try:
                dir_fd = _open_dir(root_fd, parts, create=False, owner=None)
            except OSError:
                continue
            try:
                with os.scandir(dir_fd) as listing:
                    for entry in listing:
                        if not entry.is_dir(follow_symlinks=False):
                            yield "/".join((*parts, entry.name)), dir_fd, entry.name
                        elif len(parts) < MAX_DEPTH:
                            pending.append((*parts, entry.name))
            finally:
                os.close(dir_fd)
    finally:
        os.close(root_fd)


class _Collector:
    """Reads matched files while bytes and time are left; the notes it took (at most MAX_NOTES, then a count)."""

    def __init__(self, max_bytes: int, deadline: float | None) -> None:
        self.room, self.deadline = max_bytes, deadline
        self.files: dict[str, bytes] = {}
        self.notes: list[str] = []
        self.unnoted = 0

    def note(self, text: str) -> None:
        if len(self.notes) < MAX_NOTES:
            self.notes.append(text)
        else:
            self.unnoted += 1

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def take(self, rel: str, dir_fd: int, name: str) -> None:
        data = _read_regular(dir_fd, name, self.room)
        if data is None:
            self.note(f"collect: skipped {rel} (not a regular file; symlinks are never followed)")
        elif isinstance(data, int):
            self.note(f"collect: skipped {rel} ({data} bytes would pass the {self.room}-byte room left under the cap)")
        else:
            self.files[rel] = data
            self.room -= len(data)

    def finish(self) -> tuple[dict[str, bytes], list[str]]:
        if self.unnoted:
            self.notes.append(f"collect: {self.unnoted} more notes left out")
        return self.files, self.notes


def collect_files(root: str, patterns: Sequence[str], max_bytes: int, max_files: int = 1000,
                  deadline: float | None = None) -> tuple[dict[str, bytes], list[str]]:
    """Read the regular files matching ``patterns``, at most ``max_files`` of them and ``max_bytes`` in all,
    stopping at ``deadline`` (``time.monotonic()``). A file is sized with ``fstat`` before it is read, so one
    too large is refused without reading it; symlinks and other specials are skipped with a note."""
    if not patterns:
        return {}, []
    regexes = [glob_regex(str(check_relative(p))) for p in patterns]
    collector = _Collector(max_bytes, deadline)
    for rel, dir_fd, name in _entries(root):
        if collector.out_of_time():
            collector.note("collect: stopped, the run's wall-clock budget is spent")
            break
        if rel is None or not any(r.match(rel) for r in regexes):
            continue
        if not _printable_utf8(rel):
            collector.note(f"collect: skipped {rel.encode('utf-8', 'backslashreplace')!r} (not printable UTF-8)")
            continue
        if len(collector.files) >= max_files:
            collector.note(f"collect: stopped at {max_files} files (the cap on their number)")
            break
        collector.take(rel, dir_fd, name)
    return collector.finish()


def _read_regular(dir_fd: int, name: str, room: int) -> bytes | int | None:
    """The file's bytes; its size when that passes ``room`` (nothing read); None when it is not a regular file."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if info.st_size > room:
            return info.st_size
        chunks, size = [], 0
        while size <= room and (chunk := os.read(fd, min(1 << 20, room + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
        return size if size > room else b"".join(chunks)
    finally:
        os.close(fd)


def rejected_names(names: Iterable[str], patterns: Sequence[str]) -> dict[str, str]:
    """The names among ``names`` that cannot be files collected for ``patterns``, each with the reason: a name
    must be a normalised relative path inside the work dir that matches a pattern (checked again on the host,
    whoever collected the files)."""
    regexes = [glob_regex(str(check_relative(p))) for p in patterns]
    rejected = {}
    for name in names:
        if not name or str(PurePosixPath(name)) != name or name.startswith("/") or ".." in name.split("/"):
            rejected[name] = "not a relative path inside the work dir"
        elif not _printable_utf8(name):
            rejected[name] = "not printable UTF-8 (control characters or undecodable bytes)"
        elif not any(r.match(name) for r in regexes):
            rejected[name] = "matches no requested pattern"
    return rejected


def _printable_utf8(name: str) -> bool:
    """True when ``name`` encodes to UTF-8 (no undecodable bytes, which the file system hands back as lone
    surrogates that break every later encode) and holds no control character (a newline or an escape sequence
    would forge log lines or terminal output wherever the name is shown)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in name)


def tree_size(root: str) -> int:
    """Bytes used by regular files below ``root`` (symlinks not followed)."""
    total = 0
    for rel, dir_fd, name in _entries(root):
        if rel is None:
            continue
        try:
            total += os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_blocks * 512
        except OSError:
            pass
    return total


def encode_files(files: Mapping[str, bytes]) -> dict[str, str]:
    """Files as JSON-safe ``{checked relative path: base64 text}`` (how they travel to a container's runner)."""
    return {str(check_relative(path)): base64.b64encode(bytes(data)).decode() for path, data in files.items()}


def decode_files(encoded: Mapping[str, str]) -> dict[str, bytes]:
    """The files :func:`encode_files` encoded."""
    return {path: base64.b64decode(text) for path, text in encoded.items()}
