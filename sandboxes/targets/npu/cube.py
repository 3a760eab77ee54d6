"""The cube path: LoadData (L1 → L0A/L0B), Mmad on fractal L0 buffers, Fixpipe (L0C → GM)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sandboxes.targets.npu.dtypes import itemsize, np_dtype
from sandboxes.targets.npu.errors import CubeBufferError, DtypeError, ParamError
from sandboxes.targets.npu.fractal import c0_of, ceil_to, from_nz, from_zn, from_zz, pad, to_nz, to_zn, to_zz
from sandboxes.targets.npu.runtime import current_core
from sandboxes.targets.npu.tensors import GlobalTensor, LocalTensor, rows_view

MMAD_TYPES = {("float16", "float32"), ("bfloat16", "float32"), ("float32", "float32"), ("int8", "int32")}
QUANT = {None: ("float32", "int32"), "F322F16": ("float16",), "F322BF16": ("bfloat16",)}


@dataclass
class LoadData2DParams:
    """Load a whole ``rows × cols`` Nz matrix from L1 into L0A (as Zz) or L0B (as Zn).

    ``ifTranspose`` loads its transpose (a ``cols × rows`` matrix), e.g. for ``x @ W.T``.
    """

    rows: int = 0
    cols: int = 0
    ifTranspose: bool = False


@dataclass
class MmadParams:
    """``C[m×n] (+)= A[m×k] · B[k×n]``; ``cmatrixInitVal`` True starts C from zero."""

    m: int = 0
    n: int = 0
    k: int = 0
    cmatrixInitVal: bool = True


@dataclass
class FixpipeParams:
    """Write ``m × n`` of L0C to GM rows ``dstStride`` elements apart, optionally quantised and ReLU'd."""

    m: int = 0
    n: int = 0
    dstStride: int = 0
    quantPre: str | None = None
    reluEn: bool = False


def _require(tensor, position: str, role: str) -> None:
    if not isinstance(tensor, LocalTensor) or tensor.position != position:
        where = tensor.position if isinstance(tensor, LocalTensor) else type(tensor).__name__
        raise CubeBufferError(f"{role} must be a LocalTensor at {position}, got {where}")
    tensor._require_alignment(role)


def LoadData(dst, src, params: LoadData2DParams) -> None:
    """MTE1: L1 (Nz) → L0A (Zz) or L0B (Zn)."""
    if not isinstance(dst, LocalTensor) or dst.position not in ("A2", "B2"):
        raise CubeBufferError("LoadData's dst must be an A2 (L0A) or B2 (L0B) tensor")
    if not isinstance(src, LocalTensor) or src.buffer != "L1":
        raise CubeBufferError("LoadData's src must be an L1 tensor (A1/B1)")
    if dst.dtype != src.dtype:
        raise DtypeError(f"LoadData between {src.dtype} and {dst.dtype}: no conversion on MTE1")
    dst._require_alignment("LoadData dst")
    c0 = c0_of(src.dtype)
    rows, cols = ceil_to(params.rows, 16), ceil_to(params.cols, c0)
    if params.rows <= 0 or params.cols <= 0:
        raise ParamError("LoadData2DParams needs rows and cols > 0")
    matrix = from_nz(src._span(0, rows * cols), rows, cols, c0)[:params.rows, :params.cols]
    if params.ifTranspose:
        matrix = matrix.T
    if dst.position == "A2":
        flat = to_zz(pad(matrix, ceil_to(matrix.shape[0], 16), ceil_to(matrix.shape[1], c0)), c0)
    else:
        flat = to_zn(pad(matrix, ceil_to(matrix.shape[0], c0), ceil_to(matrix.shape[1], 16)), c0)
    dst._span(0, flat.size)[...] = flat
    core = current_core()
    nbytes = flat.size * itemsize(dst.dtype)
    path = "L1->L0A" if dst.position == "A2" else "L1->L0B"
    core.local_bytes += nbytes
    core.timeline.record("LoadData", "MTE1", core.dma_cycles(path, nbytes), [src._slot], [dst._slot], nbytes)


def Mmad(dst, fmL0A, filterL0B, params: MmadParams) -> None:
    """CUBE: dst (L0C, Nz) (+)= A (L0A, Zz) · B (L0B, Zn)."""
    _require(dst, "CO1", "Mmad dst")
    _require(fmL0A, "A2", "Mmad fmL0A")
    _require(filterL0B, "B2", "Mmad filterL0B")
    if fmL0A.dtype != filterL0B.dtype or (fmL0A.dtype, dst.dtype) not in MMAD_TYPES:
        raise DtypeError(f"Mmad does not support {fmL0A.dtype}·{filterL0B.dtype}→{dst.dtype}; "
                         f"supported: {sorted(MMAD_TYPES)}")
    m, n, k = int(params.m), int(params.n), int(params.k)
    if not all(1 <= v <= 4095 for v in (m, n, k)):
        raise ParamError(f"MmadParams m, n, k must be in [1, 4095], got {m}, {n}, {k}")
    c0 = c0_of(fmL0A.dtype)
    mp, np_, kp = ceil_to(m, 16), ceil_to(n, 16), ceil_to(k, c0)
    a = from_zz(fmL0A._span(0, mp * kp), mp, kp, c0)
    b = from_zn(filterL0B._span(0, kp * np_), kp, np_, c0)
    acc = np.int64 if dst.dtype == "int32" else np.float32
    result = np.ascontiguousarray(a, dtype=acc) @ np.ascontiguousarray(b, dtype=acc)
    out = dst._span(0, mp * np_)
    if not params.cmatrixInitVal:
        result = result + from_nz(out, mp, np_, 16).astype(acc)
    out[...] = to_nz(result.astype(np_dtype(dst.dtype)), 16)
    core = current_core()
    factor = core.chip.cube_float_factor if fmL0A.dtype == "float32" else 1.0
    cycles = (mp // 16) * (kp // c0) * (np_ // 16) * factor + core.chip.cube_head_cycles
    reads = [fmL0A._slot, filterL0B._slot] + ([] if params.cmatrixInitVal else [dst._slot])
    core.timeline.record("Mmad", "CUBE", cycles, reads, [dst._slot])


def Fixpipe(dst, src, params: FixpipeParams) -> None:
    """FIX: L0C (Nz) → GM (row-major), with optional fp32→fp16/bf16 quantisation and ReLU."""
    _require(src, "CO1", "Fixpipe src")
    if not isinstance(dst, GlobalTensor):
        raise CubeBufferError("Fixpipe writes to a GlobalTensor")
    if params.quantPre not in QUANT or dst.dtype not in QUANT[params.quantPre]:
        raise DtypeError(f"Fixpipe with quantPre={params.quantPre!r} cannot write {dst.dtype}; "
                         f"use quantPre='F322F16' for float16 or 'F322BF16' for bfloat16")
    m, n = int(params.m), int(params.n)
    stride = int(params.dstStride or n)
    if m <= 0 or n <= 0 or stride < n:
        raise ParamError(f"FixpipeParams needs m, n > 0 and dstStride ≥ n, got {m}, {n}, {stride}")
    mp, np_ = ceil_to(m, 16), ceil_to(n, 16)
    result = from_nz(src._span(0, mp * np_), mp, np_, 16)[:m, :n]
    if params.reluEn:
        result = np.maximum(result, 0)
    span = dst._span(0, (m - 1) * stride + n)
    view = rows_view(span, m, n, stride)
    view[...] = result.astype(np_dtype(dst.dtype))
    dst._touch(view, True, "Fixpipe")
    core = current_core()
    nbytes = m * n * itemsize(dst.dtype)
    core.gm_write += nbytes
    core.timeline.record("Fixpipe", "FIX", core.dma_cycles("L0C->GM", nbytes, m),
                         [src._slot], [core.gm_slot(dst._addr)], nbytes)
