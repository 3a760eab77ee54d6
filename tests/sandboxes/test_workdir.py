import os
import time

import pytest

from sandboxes.errors import UserError
from tests.sandboxes.conftest import SMALL
from sandboxes.workdir import (MAX_DEPTH, MAX_NOTES, collect_files, decode_files, encode_files, glob_regex,
                               rejected_names, tree_size, write_files)


@pytest.mark.parametrize("bad", ["/etc/passwd", "../x", "a/../../x", "", "."])
def test_paths_must_stay_inside(tmp_path, bad):
    with pytest.raises(UserError):
        write_files(str(tmp_path), {bad: b"x"})


def test_write_creates_folders_and_replaces_a_planted_symlink(tmp_path):
    target = tmp_path / "outside.txt"
    target.write_text("host")
    work = tmp_path / "work"
    work.mkdir()
    os.symlink(target, work / "f.txt")
    write_files(str(work), {"f.txt": b"new", "a/b/c.txt": b"deep"})
    assert target.read_text() == "host"
    assert (work / "f.txt").read_bytes() == b"new" and not (work / "f.txt").is_symlink()
    assert (work / "a/b/c.txt").read_bytes() == b"deep"


def test_write_refuses_to_descend_through_a_symlinked_folder(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    os.symlink(outside, work / "d")
    with pytest.raises(UserError):
        write_files(str(work), {"d/x.txt": b"x"})
    assert not (outside / "x.txt").exists()


def test_collect_matches_globs_and_never_follows_symlinks(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    (work / "out.txt").write_text("result")
    (work / "sub" / "deep.txt").write_text("deep")
    os.symlink(secret, work / "leak.txt")
    os.symlink(tmp_path, work / "hostdir")
    files, notes = collect_files(str(work), ["*.txt", "sub/**", "hostdir/**"], max_bytes=1 << 20)
    assert files == {"out.txt": b"result", "sub/deep.txt": b"deep"}
    assert any("leak.txt" in note for note in notes)


def test_collect_respects_the_size_cap(tmp_path):
    (tmp_path / "a.bin").write_bytes(b"0" * 100)
    (tmp_path / "b.bin").write_bytes(b"1" * 100)
    files, notes = collect_files(str(tmp_path), ["*.bin"], max_bytes=150)
    assert len(files) == 1 and len(notes) == 1


def test_glob_regex_semantics():
    assert glob_regex("*.txt").match("a.txt") and not glob_regex("*.txt").match("d/a.txt")
    assert glob_regex("**/*.txt").match("a.txt") and glob_regex("**/*.txt").match("d/e/a.txt")
    assert glob_regex("out/**").match("out/x/y") and glob_regex("k?.[ch]").match("k1.c")


def test_tree_size_counts_blocks(tmp_path):
    (tmp_path / "f").write_bytes(b"0" * 10000)
    assert tree_size(str(tmp_path)) >= 10000


def test_files_travel_as_json_safe_text_and_come_back_unchanged():
    files = {"a.py": b"print(1)\n", "sub/blob.bin": bytes(range(256))}
    encoded = encode_files(files)
    assert all(isinstance(text, str) for text in encoded.values()) and decode_files(encoded) == files
    with pytest.raises(UserError):
        encode_files({"../escape": b""})


def test_a_file_too_large_is_refused_without_being_read(tmp_path, monkeypatch):
    with open(tmp_path / "huge.bin", "wb") as handle:
        handle.truncate(64 * 2**20)  # sparse: costs nothing to make, 64 MiB to read
    (tmp_path / "small.bin").write_bytes(b"s")
    read = []
    real_read = os.read

    def counted_read(fd: int, size: int) -> bytes:
        data = real_read(fd, size)
        read.append(len(data))
        return data
    monkeypatch.setattr(os, "read", counted_read)
    files, notes = collect_files(str(tmp_path), ["*.bin"], max_bytes=2**20)
    assert files == {"small.bin": b"s"} and sum(read) == 1
    assert any("huge.bin" in note for note in notes)


def test_collect_caps_the_number_of_files(tmp_path):
    for index in range(30):
        (tmp_path / f"f{index}.txt").write_text("x")
    files, notes = collect_files(str(tmp_path), ["*.txt"], max_bytes=2**20, max_files=10)
    assert len(files) == 10 and any("cap on their number" in note for note in notes)


def test_collect_stops_when_the_budget_is_spent(tmp_path):
    (tmp_path / "late.txt").write_text("x")
    files, notes = collect_files(str(tmp_path), ["*.txt"], max_bytes=2**20, deadline=time.monotonic() - 1)
    assert files == {} and any("budget is spent" in note for note in notes)


def _nest(root, depth: int) -> None:
    """``depth`` nested folders with a file at every level."""
    fd = os.open(root, os.O_RDONLY)
    for level in range(depth):
        with open(os.open("f.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as handle:
            handle.write(str(level))
        os.mkdir("d", dir_fd=fd)
        fd, parent = os.open("d", os.O_RDONLY, dir_fd=fd), fd
        os.close(parent)
    os.close(fd)


def test_collect_enters_no_deeper_than_its_depth_cap(tmp_path):
    _nest(tmp_path, MAX_DEPTH + 20)
    files, _notes = collect_files(str(tmp_path), ["**/f.txt"], max_bytes=2**20)
    assert len(files) == MAX_DEPTH + 1 and files["f.txt"] == b"0"


def test_many_skipped_files_make_few_notes(tmp_path):
    for index in range(50):
        os.symlink("/etc/passwd", tmp_path / f"l{index}.txt")
    _files, notes = collect_files(str(tmp_path), ["*.txt"], max_bytes=2**20)
    assert len(notes) == MAX_NOTES + 1 and "30 more notes" in notes[-1]


def test_returned_names_must_be_relative_inside_and_requested():
    names = ["out/a.txt", "../../../tmp/x.txt", "/etc/x.txt", "out//b.txt", "out/../c.txt", "./out/d.txt",
             "out/e.bin", "out/f\nnewline.txt", "out/\udcff.txt", "out/\x1b[31mred.txt", "out/é.txt"]
    rejected = rejected_names(names, ["out/*.txt"])
    assert sorted(rejected) == sorted(names[1:10])
    assert rejected["out/e.bin"] == "matches no requested pattern"
    assert rejected["out/\udcff.txt"].startswith("not printable UTF-8")


def test_oddly_named_files_are_not_collected(any_sandbox):
    """An undecodable or control-character name (the file system returns b'\\xff' as '\\udcff') is dropped
    with a note; before, it came back and broke whatever encoded it later (json, sqlite, a log line)."""
    code = "open(b'\\xff\\n.txt', 'wb').write(b'x'); open('ok.txt', 'w').write('y')"
    result = any_sandbox.run(["python", "-c", code], collect=["*.txt"], limits=SMALL)
    assert result.files == {"ok.txt": b"y"} and not result.sandbox_error
    assert any("not printable UTF-8" in note for note in result.notes)
