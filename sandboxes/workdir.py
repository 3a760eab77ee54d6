"""Put files into a work directory and read them back, never following a symlink either way."""

from __future__ import annotations

import base64
import os
import re
import stat
from pathlib import PurePosixPath
from typing import Iterator, Mapping, Sequence

from sandboxes.errors import UserError


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


def _regular_files(root: str) -> Iterator[tuple[str, int, str]]:
    """Yield (relative path, dir fd, name) of every entry below ``root`` without entering symlinks."""
    for dirpath, _dirs, names, dir_fd in os.fwalk(root, follow_symlinks=False):
        rel_dir = os.path.relpath(dirpath, root)
        for name in names:
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            yield rel, dir_fd, name


def collect_files(root: str, patterns: Sequence[str], max_bytes: int) -> tuple[dict[str, bytes], list[str]]:
    """Read the regular files matching ``patterns``; symlinks and other specials are skipped with a note."""
    if not patterns:
        return {}, []
    regexes = [glob_regex(str(check_relative(p))) for p in patterns]
    files: dict[str, bytes] = {}
    notes: list[str] = []
    total = 0
    for rel, dir_fd, name in _regular_files(root):
        if not any(r.match(rel) for r in regexes):
            continue
        data = _read_regular(dir_fd, name)
        if data is None:
            notes.append(f"collect: skipped {rel} (not a regular file; symlinks are never followed)")
        elif total + len(data) > max_bytes:
            notes.append(f"collect: skipped {rel} ({len(data)} bytes would pass the {max_bytes}-byte cap)")
        else:
            files[rel] = data
            total += len(data)
    return files, notes


def _read_regular(dir_fd: int, name: str) -> bytes | None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def tree_size(root: str) -> int:
    """Bytes used by regular files below ``root`` (symlinks not followed)."""
    total = 0
    for _rel, dir_fd, name in _regular_files(root):
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
