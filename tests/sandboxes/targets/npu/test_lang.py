"""The kernel language's own launch: inside a capture (a forward pass being timed) no kernel source can
name a chip of its own."""

import numpy as np
import pytest

from sandboxes.targets.npu.chip import ChipConfig, load_chip
from sandboxes.targets.npu.errors import ParamError
from sandboxes.targets.npu.lang import launch
from sandboxes.targets.npu.launch import capture
from tests.sandboxes.targets.npu.kernels import CopyTiling, copy_kernel


def _copy(chip=None):
    x, y = np.arange(1 << 16, dtype=np.float32), np.zeros(1 << 16, np.float32)
    profile = launch(copy_kernel, 8, x, y, CopyTiling(1 << 16, 2048, 2, 0), chip=chip)
    assert np.array_equal(x, y)
    return profile


def test_inside_a_capture_a_chip_of_the_callers_own_is_refused():
    fast = ChipConfig(launch_overhead_cycles=0.0, dma_latency_cycles=0.0, hbm_bytes_per_cycle=1e12)
    with capture(ChipConfig()) as launches, pytest.raises(ParamError, match="chip of its own"):
        _copy(chip=fast)
    assert launches == []


def test_inside_a_capture_the_captures_chip_is_used_and_may_be_named():
    other = load_chip("ascend910a")
    with capture(other) as launches:
        unnamed, named = _copy(), _copy(chip=other)
    assert unnamed.chip == named.chip == other.name and unnamed.cycles == named.cycles
    assert len(launches) == 2


def test_outside_a_capture_any_chip_may_be_timed():
    assert _copy(chip=load_chip("ascend910a")).cycles != _copy().cycles
