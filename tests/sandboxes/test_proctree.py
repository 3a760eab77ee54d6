"""process_table sees this process and its children; reap_children collects exited children."""

import os
import subprocess
import sys
import time

from sandboxes.proctree import process_table, reap_children


def test_table_holds_this_process_under_its_parent():
    parent, state = process_table()[os.getpid()]
    assert parent == os.getppid() and state in "RS"


def test_an_exited_child_is_a_zombie_until_reaped_and_a_kept_one_is_reported():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 30
    while process_table().get(child.pid, (0, ""))[1] != "Z":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert process_table()[child.pid][0] == os.getpid()
    assert reap_children({child.pid}) is False
    assert child.pid not in process_table() and reap_children() is True
    child.returncode = 0  # reaped above: Popen must not wait for it again
