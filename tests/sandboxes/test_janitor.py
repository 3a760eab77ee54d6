import os
import subprocess
import sys

import pytest

from sandboxes import janitor, linux
from sandboxes.cgroups import Cgroup


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


ORPHAN_OWNER = """
import os, signal, subprocess, sys
from sandboxes.cgroups import Cgroup
group = Cgroup.create(64, 8)
daemon = subprocess.Popen(["sleep", "300"], preexec_fn=lambda: group.attach(0), start_new_session=True)
print(daemon.pid, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # the owner dies mid-run, as under an OOM kill or kill -9
"""


def test_a_daemon_left_by_a_dead_owner_is_killed_with_its_cgroup():
    """Where no namespace ties a daemon to its run (no bubblewrap, no unshare), it outlived its killed owner in
    a cgroup that nobody removed; the next sandbox's janitor now ends it."""
    from sandboxes.isolation import probe

    if not probe().cgroups:
        pytest.skip("no writable cgroup here: runs are not put in one")
    owner = subprocess.Popen([sys.executable, "-c", ORPHAN_OWNER], stdout=subprocess.PIPE, text=True)
    daemon = int(owner.stdout.readline())
    owner.wait(timeout=60)
    try:
        assert _alive(daemon) and any(name.startswith(f"agentkiln-{owner.pid}-") for name in Cgroup.existing())
        janitor.clean_stale_cgroups()
        assert not _alive(daemon)
        assert not any(name.startswith(f"agentkiln-{owner.pid}-") for name in Cgroup.existing())
    finally:
        if _alive(daemon):
            os.kill(daemon, 9)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its new parent counts as dead)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
