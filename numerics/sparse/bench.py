"""Side-by-side timings of MACKO SpMV against dense GEMV (in-process references, CPU and, if present, GPU)."""

from __future__ import annotations

import time
from typing import Callable

import numpy as np
import torch

from numerics.sparse import macko, torch_spmv
from numerics.sparse.storage import random_sparse


def best_seconds(call: Callable[[], object], repeats: int, synchronise: Callable[[], None] = lambda: None) -> float:
    """Minimum wall time of ``repeats`` calls after one warm-up."""
    call()
    synchronise()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        synchronise()
        times.append(time.perf_counter() - start)
    return min(times)


def cpu_row(dense: np.ndarray, repeats: int) -> dict:
    """numpy and torch MACKO references against torch dense fp16 and fp32 GEMV, same matrix, same run."""
    matrix = macko.compress(dense)
    x = np.random.default_rng(1).standard_normal(dense.shape[1]).astype(np.float32)
    weight16, weight32 = torch.from_numpy(dense), torch.from_numpy(dense.astype(np.float32))
    x16, x32 = torch.from_numpy(x).half(), torch.from_numpy(x)
    arrays = torch_spmv.to_tensors(matrix)
    times = {"dense_fp16_ms": best_seconds(lambda: torch.mv(weight16, x16), repeats),
             "dense_fp32_ms": best_seconds(lambda: torch.mv(weight32, x32), repeats),
             "macko_numpy_ms": best_seconds(lambda: macko.spmv(matrix, x), repeats),
             "macko_torch_ms": best_seconds(lambda: torch_spmv.spmv(arrays, x32, dense.shape[0]), repeats)}
    row = {name: round(1000 * value, 3) for name, value in times.items()}
    row["numpy_vs_dense_fp16"] = round(times["dense_fp16_ms"] / times["macko_numpy_ms"], 3)
    row["torch_vs_dense_fp16"] = round(times["dense_fp16_ms"] / times["macko_torch_ms"], 3)
    return row


def gpu_row(dense: np.ndarray, repeats: int) -> dict:
    """torch MACKO reference on the GPU against cuBLAS fp16 GEMV; says so when there is no GPU."""
    if not torch.cuda.is_available():
        return {"gpu": "not run: no GPU"}
    device = "cuda"
    arrays = torch_spmv.to_tensors(macko.compress(dense), device)
    weight = torch.from_numpy(dense).to(device)
    x = torch.randn(dense.shape[1], device=device)
    x16 = x.half()
    sync = torch.cuda.synchronize
    dense_s = best_seconds(lambda: torch.mv(weight, x16), repeats, sync)
    macko_s = best_seconds(lambda: torch_spmv.spmv(arrays, x, dense.shape[0]), repeats, sync)
    return {"gpu": torch.cuda.get_device_name(), "gpu_dense_fp16_ms": round(1000 * dense_s, 4),
            "gpu_macko_torch_ms": round(1000 * macko_s, 4), "gpu_torch_vs_dense_fp16": round(dense_s / macko_s, 3)}


def timing_rows(rows: int, cols: int, densities: list[float], repeats: int = 20) -> list[dict]:
    """One row per density: CPU references and the GPU comparison."""
    out = []
    for density in densities:
        dense = random_sparse(rows, cols, density, seed=0)
        out.append({"density": density, "sparsity": round(1 - density, 3), "shape": f"{rows}x{cols}",
                     **cpu_row(dense, repeats), **gpu_row(dense, repeats)})
    return out
