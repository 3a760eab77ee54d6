import os
import sys
import shutil
import tempfile
from pathlib import Path

from sandboxes import hostfs
from sandboxes.base import Limits
from tests.sandboxes.conftest import require_guarantee


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
    assert hostfs.search_path().split(":")[0] == os.path.join(os.path.realpath(sys.prefix), "bin")


def test_work_dir_moves_aside_for_a_read_only_path_below_work():
    assert hostfs.inside_workdir([]) == "/work"
    assert hostfs.inside_workdir(["/work/main"]) != "/work"


def test_project_folder_is_importable_and_not_hidden(any_sandbox):
    require_guarantee(any_sandbox, "project_visible")
    project = str(Path(__file__).resolve().parents[2])
    code = "import os, sandboxes.workdir as w; print(w.__file__); print(os.listdir('.'))"
    result = any_sandbox.run(["python", "-c", code], limits=Limits(extra_ro_paths=[project]))
    module_file, listing = result.stdout.splitlines()
    assert module_file.startswith(project) and listing == "[]", result.stderr
