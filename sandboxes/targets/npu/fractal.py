"""Fractal layouts of the cube buffers and the ND→Nz copy from GM to L1.

A fractal is 16 rows × C0 columns with C0 = 32 B / sizeof(T) (16 for fp16/bf16, 8 for fp32, 32 for
int8), i.e. 512 B; L0C fractals are 16 × 16 fp32/int32 (1024 B). For a matrix padded to whole
fractals:

* **Nz** (L1, L0C): column blocks of C0 outermost, then rows, then the C0 columns — shape
  ``(C/C0, R, C0)``.
* **Zz** (L0A, the left matrix): fractals in row-major order, each fractal row-major —
  ``(R/16, C/C0, 16, C0)``.
* **Zn** (L0B, the right matrix K×N): fractals in row-major order over (K/C0, N/16), each fractal
  stored column-major — ``(K/C0, N/16, 16, C0)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sandboxes.targets.npu.dtypes import itemsize
from sandboxes.targets.npu.errors import CubeBufferError, DtypeError, ParamError
from sandboxes.targets.npu.runtime import current_core
from sandboxes.targets.npu.tensors import rows_view


def c0_of(dtype: str) -> int:
    return 32 // itemsize(dtype)


def ceil_to(value: int, unit: int) -> int:
    return -(-value // unit) * unit


def pad(matrix: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``matrix`` with zero rows and columns up to ``rows`` × ``cols`` (itself when it has that shape)."""
    if matrix.shape == (rows, cols):
        return matrix
    out = np.zeros((rows, cols), dtype=matrix.dtype)
    out[:matrix.shape[0], :matrix.shape[1]] = matrix
    return out


def to_nz(matrix: np.ndarray, c0: int) -> np.ndarray:
    rows, cols = matrix.shape
    return matrix.reshape(rows, cols // c0, c0).transpose(1, 0, 2).reshape(-1)


def from_nz(flat: np.ndarray, rows: int, cols: int, c0: int) -> np.ndarray:
    return flat[:rows * cols].reshape(cols // c0, rows, c0).transpose(1, 0, 2).reshape(rows, cols)


def to_zz(matrix: np.ndarray, c0: int) -> np.ndarray:
    rows, cols = matrix.shape
    return matrix.reshape(rows // 16, 16, cols // c0, c0).transpose(0, 2, 1, 3).reshape(-1)


def from_zz(flat: np.ndarray, rows: int, cols: int, c0: int) -> np.ndarray:
    return flat[:rows * cols].reshape(rows // 16, cols // c0, 16, c0).transpose(0, 2, 1, 3).reshape(rows, cols)


def to_zn(matrix: np.ndarray, c0: int) -> np.ndarray:
    rows, cols = matrix.shape  # K × N
    return matrix.reshape(rows // c0, c0, cols // 16, 16).transpose(0, 2, 3, 1).reshape(-1)


def from_zn(flat: np.ndarray, rows: int, cols: int, c0: int) -> np.ndarray:
    return flat[:rows * cols].reshape(rows // c0, cols // 16, 16, c0).transpose(0, 3, 1, 2).reshape(rows, cols)


@dataclass
class Nd2NzParams:
    """ND (row-major) GM block → Nz in L1. Supported: ndNum = 1, dstNzNStride = 1.

    ``nValue`` rows of ``dValue`` elements, ``srcDValue`` elements between GM row starts,
    ``dstNzC0Stride`` rows per column block in L1 (0 means nValue rounded up to 16). Padding up to
    whole fractals is written as zeros.
    """

    ndNum: int = 1
    nValue: int = 0
    dValue: int = 0
    srcNdMatrixStride: int = 0
    srcDValue: int = 0
    dstNzC0Stride: int = 0
    dstNzNStride: int = 1
    dstNzMatrixStride: int = 0


def copy_nd2nz(dst, src, params: Nd2NzParams) -> None:
    """DataCopy(dstL1, srcGm, Nd2NzParams): MTE2 moves a row-major block into Nz fractals."""
    if dst.buffer != "L1":
        raise CubeBufferError(f"Nd2Nz copies go to L1 (A1/B1), not {dst.position}")
    if params.ndNum != 1 or params.dstNzNStride != 1:
        raise ParamError("this simulator supports Nd2NzParams with ndNum=1 and dstNzNStride=1")
    if dst.dtype != src.dtype:
        raise DtypeError(f"Nd2Nz copy between {src.dtype} and {dst.dtype}: copies do not convert")
    rows, cols, pitch = int(params.nValue), int(params.dValue), int(params.srcDValue or params.dValue)
    if rows <= 0 or cols <= 0 or pitch < cols:
        raise ParamError(f"Nd2NzParams needs nValue, dValue > 0 and srcDValue ≥ dValue, got {rows}, {cols}, {pitch}")
    c0 = c0_of(dst.dtype)
    padded_rows = ceil_to(rows, 16)
    if params.dstNzC0Stride not in (0, padded_rows):
        raise ParamError(f"dstNzC0Stride must be nValue rounded up to 16 ({padded_rows}), got {params.dstNzC0Stride}")
    dst._require_alignment("DataCopy Nd2Nz")
    block = src._span(0, (rows - 1) * pitch + cols)
    matrix = rows_view(block, rows, cols, pitch)
    src._touch(matrix, False, "DataCopy Nd2Nz")
    nz = to_nz(pad(matrix, padded_rows, ceil_to(cols, c0)), c0)
    dst._span(0, nz.size)[...] = nz
    core = current_core()
    nbytes = rows * ceil_to(cols * itemsize(dst.dtype), 32)
    core.gm_read += nbytes
    core.timeline.record("DataCopy Nd2Nz", "MTE2", core.dma_cycles("GM->L1", nbytes, rows),
                         [core.gm_slot(src._addr)], [dst._slot], nbytes)
