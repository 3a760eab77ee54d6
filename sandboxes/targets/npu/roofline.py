"""The roofline lower bound of a task on a chip: the least time any kernel could take."""

from __future__ import annotations

from sandboxes.targets.npu.chip import ChipConfig

CUBE_MACS_PER_CYCLE = {"float16": 4096, "bfloat16": 4096, "float32": 1024, "int8": 8192}
"""Per cube core: one 16×16×16 fp16 fractal per cycle ([W1],[A3] S), fp32 at 1/4 ([A2] S), int8 ×2 ([W1] S)."""


def roofline_cycles(chip: ChipConfig, gm_bytes: int, cube_flops: float = 0.0, dtype: str = "float32") -> float:
    """Launch overhead + max(compulsory GM traffic ÷ bandwidth, matmul FLOPs ÷ peak cube rate).

    Vector work is left out, which keeps this a true lower bound for every kernel.
    """
    macs = CUBE_MACS_PER_CYCLE.get(dtype, CUBE_MACS_PER_CYCLE["float32"])
    compute = cube_flops / (2 * macs * chip.aic_cores)
    return chip.launch_overhead_cycles + max(gm_bytes / chip.hbm_bytes_per_cycle, compute)
