"""The read-only code snapshot the sandboxed runner imports."""

from sandboxes.targets.snapshot import code_snapshot


def test_snapshot_copies_packages_once_per_content(tmp_path):
    first = code_snapshot(tmp_path, ("sandboxes",))
    assert (first / "sandboxes" / "targets" / "base.py").is_file()
    assert not list(first.rglob("__pycache__"))
    assert code_snapshot(tmp_path, ("sandboxes",)) == first
    assert (first.stat().st_mode & 0o755) == 0o755
