"""The simulator's own benchmark: how fast it simulates, and the timing model's headline ratios,
measured side by side in one run (``agent bench npu``). Cycle figures are simulated; wall seconds
are the simulator's real run time on this machine."""

from __future__ import annotations

import time

import torch

from sandboxes.targets.npu.eager import kernel_module
from sandboxes.targets.npu.launch import capture, current_chip
from sandboxes.targets.npu.profile import Profile
from sandboxes.targets.npu.roofline import roofline_cycles
from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec

MILLION = 1 << 20


def _scenario(name: str, spec: OpSpec, params: dict, inputs: list[torch.Tensor], flops: float = 0.0) -> dict:
    run = getattr(kernel_module(render_kernel(spec, params)), f"run_{spec.family}")
    started = time.perf_counter()
    with capture() as launches:
        output = run(*inputs)
    wall = time.perf_counter() - started
    profile = Profile(launches)
    chip_cycles = roofline_cycles(current_chip(), sum(t.numel() * 4 for t in [*inputs, output]), flops)
    return {"scenario": name, "params": params, "cycles": round(profile.cycles), "simulated_us": profile.time_us,
            "bottleneck": profile.bottleneck, "roofline_fraction": round(chip_cycles / profile.cycles, 4),
            "wall_s": round(wall, 3), "elements": sum(t.numel() for t in inputs), "simulated": True}


def run_selfbench() -> tuple[dict, list[dict]]:
    """Simulation speed on 1M-element kernels, buffering and core-count ratios, a 1024³ matmul."""
    torch.manual_seed(0)
    x = torch.randn(MILLION)
    relu, gelu = OpSpec("relu", "elementwise", ["x"]), OpSpec("gelu", "elementwise", ["x"])
    rows = [_scenario("relu 1M", relu, {"BLOCK_DIM": 48}, [x]),
            _scenario("gelu 1M", gelu, {"BLOCK_DIM": 48}, [x])]
    rows += [_scenario(f"gelu 1M, {n} buffer(s), 8 cores", gelu, {"BUFFER_NUM": n, "BLOCK_DIM": 8}, [x])
             for n in (1, 2)]
    rows += [_scenario(f"relu 1M, {c} cores", relu, {"BLOCK_DIM": c}, [x]) for c in (1, 4, 16, 48)]
    a, b = torch.randn(1024, 1024), torch.randn(1024, 1024)
    rows.append(_scenario("matmul 1024^3 fp32", OpSpec("matmul", "matmul", ["a", "b"]), {}, [a, b], 2 * 1024 ** 3))
    cycles = {row["scenario"]: row["cycles"] for row in rows}
    summary = {
        "simulated": True,
        "sim_wall_s_relu_1M": rows[0]["wall_s"],
        "sim_wall_s_gelu_1M": rows[1]["wall_s"],
        "double_over_single_buffering": round(cycles["gelu 1M, 1 buffer(s), 8 cores"]
                                              / cycles["gelu 1M, 2 buffer(s), 8 cores"], 3),
        "speedup_1_to_4_cores": round(cycles["relu 1M, 1 cores"] / cycles["relu 1M, 4 cores"], 3),
        "speedup_16_to_48_cores": round(cycles["relu 1M, 16 cores"] / cycles["relu 1M, 48 cores"], 3),
    }
    return summary, rows
