"""Bad input is reported and skipped: unparsable, binary, huge, submodule, missing commit."""

import os
import subprocess

import pytest

from agents.rpg.build import EncodeConfig, build_rpg
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.source import check_content, read_commit, read_directory, resolve_commit
from benchmarks.repo.demo import commit_all, init_repo
from sandboxes.errors import UserError

GOOD = {"pkg/__init__.py": "", "pkg/ok.py": "def fine():\n    return 1\n"}


def bad_repo(tmp_path):
    repo = tmp_path / "bad"
    init_repo(repo, GOOD)
    (repo / "pkg/broken.py").write_text("def broken(:\n    pass\n")
    (repo / "pkg/blob.py").write_bytes(b"\x00\x01\x02binary")
    (repo / "pkg/latin.py").write_bytes("x = 'caf\xe9'\n".encode("latin-1"))
    (repo / "pkg/huge.py").write_text("x = 1\n" * 5000)
    sub = tmp_path / "subrepo"
    init_repo(sub, {"inner.py": "def inner():\n    pass\n"})
    subprocess.run(["git", "-C", str(repo), "-c", "protocol.file.allow=always", "submodule", "add", "-q",
                    str(sub), "vendor/sub"], check=True, capture_output=True)
    return repo, commit_all(repo, "bad input")


def test_commit_build_reports_every_bad_file_and_keeps_the_good_ones(tmp_path):
    repo, commit = bad_repo(tmp_path)
    rpg, stats = build_rpg(read_commit(repo, commit), OfflineLifter(), EncodeConfig(max_file_bytes=10_000))
    reasons = {s.path: s.reason for s in stats.skipped}
    assert reasons["pkg/broken.py"].startswith("does not parse")
    assert reasons["pkg/blob.py"] == "binary file"
    assert reasons["pkg/latin.py"].startswith("binary file (not UTF-8")
    assert reasons["pkg/huge.py"].startswith("huge file")
    assert reasons["vendor/sub"] == "submodule"
    assert "pkg/ok.py:fine" in rpg and "pkg/broken.py" not in rpg


def test_declared_encodings_and_a_byte_order_mark_are_read_as_python_reads_them(tmp_path):
    files = {"bom.py": b"\xef\xbb\xbfdef marked():\n    pass\n",
             "declared.py": "# -*- coding: latin-1 -*-\ndef caf\xe9():\n    return 'd\xe9j\xe0'\n".encode("latin-1")}
    (tmp_path / "repo").mkdir()
    for name, data in files.items():
        (tmp_path / "repo" / name).write_bytes(data)
    rpg, stats = build_rpg(read_directory(tmp_path / "repo", 10_000), OfflineLifter())
    assert stats.skipped == [] and "bom.py:marked" in rpg and "declared.py:caf\xe9" in rpg


def test_directory_build_follows_no_link_and_reads_no_special_file(tmp_path):
    secret = tmp_path / "home" / "credentials.py"
    secret.parent.mkdir()
    secret.write_text("aws_secret_access_key = 'TOPSECRET'\ndef leaked():\n    pass\n")
    repo = tmp_path / "repo"
    init_repo(repo, GOOD)
    (repo / "pkg/settings.py").symlink_to(secret)
    (repo / "pkg/zero.py").symlink_to("/dev/zero")
    os.mkfifo(repo / "pkg/pipe.py")
    listing = read_directory(repo, 10_000)
    assert set(listing.files) == set(GOOD)
    reasons = {s.path: s.reason for s in listing.skipped}
    assert reasons == {"pkg/settings.py": "symbolic link (not followed)", "pkg/zero.py": "symbolic link (not followed)",
                       "pkg/pipe.py": "not a regular file"}


def test_directory_build_skips_nested_checkouts(tmp_path):
    repo, _ = bad_repo(tmp_path)
    listing = read_directory(repo, 10_000)
    assert "vendor/sub/inner.py" not in listing.files
    assert [(s.path, s.reason) for s in listing.skipped] == [("pkg/huge.py", "huge file (30000 bytes > 10000)"),
                                                             ("vendor/sub", "submodule")]  # huge: sized before reading


def test_missing_commit_is_a_user_error(tmp_path):
    repo = tmp_path / "r"
    init_repo(repo, GOOD)
    with pytest.raises(UserError, match="not found"):
        resolve_commit(repo, "0" * 40)
    with pytest.raises(UserError):
        read_commit(repo, "deadbeef")
    with pytest.raises(UserError, match="not a directory"):
        read_directory(tmp_path / "nowhere", 10)


def test_check_content():
    assert check_content("a.py", b"x = 1\n", 100) == ("x = 1\n", "")
    assert check_content("a.py", b"x" * 101, 100)[0] is None
