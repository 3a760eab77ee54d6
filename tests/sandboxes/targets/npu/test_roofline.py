"""Roofline lower bound: bandwidth or cube compute, plus one launch."""

import pytest

from sandboxes.targets.npu.chip import ChipConfig
from sandboxes.targets.npu.roofline import roofline_cycles


def test_memory_and_compute_bounds():
    chip = ChipConfig()
    memory = roofline_cycles(chip, 768 * 1000)
    assert memory == chip.launch_overhead_cycles + 1000
    flops = 2 * 1024 ** 3
    fp16 = roofline_cycles(chip, 0, flops, "float16") - chip.launch_overhead_cycles
    fp32 = roofline_cycles(chip, 0, flops, "float32") - chip.launch_overhead_cycles
    assert fp16 == pytest.approx(flops / (2 * 4096 * 24)) and fp32 == pytest.approx(4 * fp16)
