"""Reading a repository's files from disk: regular files inside the root only, sized first, lines as Python counts."""

import os

import pytest

from tools.rpg.files import UnreadableFile, read_source_file, source_lines


def test_lines_end_where_python_numbers_them():
    assert source_lines("a\r\nb\rc\nd\x0ce\u2028f\x1cg\n") == ["a", "b", "c", "d\x0ce\u2028f\x1cg"]
    assert source_lines("") == [] and source_lines("x") == ["x"] and source_lines("x\n\n") == ["x", ""]


def test_a_regular_file_is_read(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_bytes(b"x = 1\n")
    assert read_source_file(tmp_path, "pkg/m.py") == b"x = 1\n"


@pytest.mark.parametrize("make,reason", [
    (lambda root, outside: os.symlink(outside, root / "m.py"), "symbolic link"),
    (lambda root, outside: os.symlink("/dev/zero", root / "m.py"), "symbolic link"),
    (lambda root, outside: (os.symlink(outside.parent, root / "pkg"), None), "inside a symbolic link"),
    (lambda root, outside: os.mkfifo(root / "m.py"), "not a regular file"),
    (lambda root, outside: (root / "m.py").write_bytes(b"#" * 101), "huge file"),
])
def test_links_special_files_and_huge_files_are_not_read(tmp_path, make, reason):
    root, outside = tmp_path / "repo", tmp_path / "secret" / "m.py"
    root.mkdir()
    outside.parent.mkdir()
    outside.write_text("aws_secret = 'x'\n")
    make(root, outside)
    relative = "pkg/m.py" if reason == "inside a symbolic link" else "m.py"
    with pytest.raises(UnreadableFile, match=reason):
        read_source_file(root, relative, max_bytes=100)


@pytest.mark.parametrize("relative", ["../secret.py", "/etc/passwd", "a/../../secret.py", ""])
def test_paths_that_leave_the_root_are_refused(tmp_path, relative):
    with pytest.raises(UnreadableFile, match="outside the repository"):
        read_source_file(tmp_path, relative)
