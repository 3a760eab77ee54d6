import shutil
import tempfile
from pathlib import Path

from sandboxes import hostfs


def test_nested_paths_are_bound_once():
    dirs = hostfs.readonly_dirs(["/usr/lib", "/usr"])
    assert "/usr" in dirs and "/usr/lib" not in dirs


def test_blocking_ancestor():
    base = Path(tempfile.mkdtemp())
    try:
        base.chmod(0o755)
        locked = base / "locked"
        (locked / "inner").mkdir(parents=True)
        locked.chmod(0o700)
        assert hostfs.blocking_ancestor(str(locked / "inner")) == str(locked)
        assert hostfs.blocking_ancestor("/usr/bin") is None
    finally:
        shutil.rmtree(base)


def test_search_path_starts_with_this_python():
    assert hostfs.search_path().split(":")[0].startswith(hostfs.python_dirs()[0])
