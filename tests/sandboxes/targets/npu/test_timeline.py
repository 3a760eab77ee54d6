"""The per-core schedule: in-order pipes, queue edges and the longest path."""

import pytest

from sandboxes.targets.npu.errors import SyncError
from sandboxes.targets.npu.timeline import CoreTimeline, Slot


def test_pipes_run_concurrently_and_dependencies_order_them():
    line = CoreTimeline(issue_cycles=0)
    a, b = Slot("a"), Slot("b")
    assert line.record("load a", "MTE2", 100, writes=[a]) == 100
    assert line.record("load b", "MTE2", 100, writes=[b]) == 200  # same pipe: in order
    a.synced = True
    assert line.record("compute a", "VEC", 50, reads=[a]) == 150  # overlaps load b
    assert line.record("overwrite a", "MTE2", 10, writes=[a]) == 210  # waits for the read (buffer reuse)
    assert line.end == 210 and line.busy["MTE2"] == 210 and line.busy["VEC"] == 50


def test_unsynced_cross_pipe_read_raises():
    line = CoreTimeline()
    slot = Slot("t")
    line.record("load", "MTE2", 10, writes=[slot])
    with pytest.raises(SyncError, match="MTE2_V"):
        line.record("use", "VEC", 10, reads=[slot])


def test_scalar_read_stalls_issue():
    line = CoreTimeline(issue_cycles=1)
    slot = Slot("t")
    line.record("compute", "VEC", 500, writes=[slot])
    line.scalar_access("GetValue", slot, 30)
    assert line.issue == 530  # the next instruction issues only after the data arrived
