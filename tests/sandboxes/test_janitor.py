import os
import subprocess

import pytest

from sandboxes import janitor, linux


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_work_dirs_of_dead_owners_are_unmounted_and_removed(tmp_path):
    stale = tmp_path / f"{janitor.BASE_PREFIX}{_dead_pid()}-abc"
    live = tmp_path / f"{janitor.base_dir_name()}xyz"
    (stale / "run").mkdir(parents=True)
    live.mkdir()
    try:
        linux.mount_tmpfs(str(stale / "run"), 1, os.getuid(), os.getgid())
    except OSError:
        pass  # not root: the folder alone is still cleaned
    assert janitor.clean_stale_work_dirs(str(tmp_path)) == 1
    assert not stale.exists() and live.exists()
    assert not janitor._mounts_below(str(stale))


def test_clean_stale_never_raises(tmp_path):
    assert janitor.clean_stale(str(tmp_path / "missing")) >= 0
