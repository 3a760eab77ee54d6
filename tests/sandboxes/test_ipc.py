"""System V IPC objects of an IPC namespace are listed and removed (in a fresh namespace of their own)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandboxes import ipc, linux

CODE = """
import ctypes, sys
sys.path.insert(0, {root!r})
from sandboxes import ipc
libc = ctypes.CDLL(None, use_errno=True)
libc.shmget(0x5e1f, 4096, 0o1666)
libc.semget(0x5e1f, 2, 0o1666)
libc.msgget(0x5e1f, 0o1666)
before = [len(ipc.ids(kind)) for kind in ipc.KINDS]
failed = ipc.remove_all()
print(before, [len(ipc.ids(kind)) for kind in ipc.KINDS], failed)
"""


def test_every_object_is_found_and_removed():
    if os.geteuid() != 0:
        pytest.skip("a fresh IPC namespace for the test needs root")
    root = str(Path(__file__).parents[2])
    proc = subprocess.run([sys.executable, "-c", CODE.format(root=root)], capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: linux.unshare(linux.CLONE_NEWIPC))
    assert proc.stdout.split("\n")[0] == "[1, 1, 1] [0, 0, 0] []", proc.stderr


def test_no_table_means_no_objects(tmp_path):
    (tmp_path / "shm").write_text("       key      shmid perms\n")
    assert [ipc.ids(kind, str(tmp_path)) for kind in ("shm", "msg")] == [[], []]
