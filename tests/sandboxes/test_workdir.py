import os

import pytest

from sandboxes.errors import UserError
from sandboxes.workdir import collect_files, decode_files, encode_files, glob_regex, tree_size, write_files


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
