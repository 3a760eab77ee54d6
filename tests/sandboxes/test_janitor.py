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


def test_clean_stale_counts_both_cleanups_and_turns_an_os_error_into_zero(tmp_path, monkeypatch):
    stale = tmp_path / f"{janitor.BASE_PREFIX}{_dead_pid()}-abc"
    stale.mkdir()
    monkeypatch.setattr(janitor, "clean_stale_cgroups", lambda: 2)  # this machine's real cgroups are left alone
    assert janitor.clean_stale(str(tmp_path)) == 3 and not stale.exists()

    def unreadable_cgroups() -> int:
        raise PermissionError("cgroup file system is read-only")

    monkeypatch.setattr(janitor, "clean_stale_cgroups", unreadable_cgroups)
    assert janitor.clean_stale(str(tmp_path / "missing")) == 0
