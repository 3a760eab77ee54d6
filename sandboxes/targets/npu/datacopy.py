"""DataCopy and DataCopyPad between global memory and UB/L1/L0, with the 32-byte rules."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sandboxes.targets.npu.dtypes import itemsize, require_number
from sandboxes.targets.npu.fractal import Nd2NzParams, copy_nd2nz
from sandboxes.targets.npu.errors import AlignmentError, CubeBufferError, DtypeError, ParamError, QueuePositionError
from sandboxes.targets.npu.runtime import current_core
from sandboxes.targets.npu.tensors import GlobalTensor, LocalTensor, rows_view

BLOCK = 32
PIPE_OF_PATH = {"GM->UB": "MTE2", "GM->L1": "MTE2", "GM->L0A": "MTE2", "GM->L0B": "MTE2",
                "UB->GM": "MTE3", "UB->UB": "VEC"}


@dataclass
class DataCopyParams:
    """Strided copy: ``blockCount`` blocks of ``blockLen`` DataBlocks (32 B), gaps in DataBlocks."""

    blockCount: int = 1
    blockLen: int = 0
    srcStride: int = 0
    dstStride: int = 0


@dataclass
class DataCopyExtParams:
    """DataCopyPad rows: ``blockLen`` in bytes; the GM-side gap in bytes, the UB-side gap in DataBlocks."""

    blockCount: int = 1
    blockLen: int = 0
    srcStride: int = 0
    dstStride: int = 0


@dataclass
class DataCopyPadExtParams:
    """Fill of the padding up to the next 32 B in UB when ``isPad``."""

    isPad: bool = False
    leftPadding: int = 0
    rightPadding: int = 0
    paddingValue: float = 0


def copy_path(dst, src) -> str:
    """The hardware path of a copy, or an actionable error when none exists."""
    if isinstance(src, GlobalTensor) and isinstance(dst, LocalTensor):
        if dst.buffer == "L0C":
            raise CubeBufferError("no DMA path GM→L0C: L0C is written only by Mmad (cmatrixInitVal starts it at 0)")
        return f"GM->{dst.buffer}"
    if isinstance(src, LocalTensor) and isinstance(dst, GlobalTensor):
        if src.buffer == "L0C":
            raise CubeBufferError("L0C→GM goes through the FIX pipe: use Fixpipe(dstGm, srcL0C, FixpipeParams(...))")
        if src.buffer != "UB":
            raise QueuePositionError(f"no DMA path {src.buffer}→GM here: move results out through UB (VECOUT)")
        return "UB->GM"
    if isinstance(src, LocalTensor) and isinstance(dst, LocalTensor):
        if src.buffer == "UB" and dst.buffer == "UB":
            return "UB->UB"
        if src.buffer == "L1" and dst.buffer in ("L0A", "L0B"):
            raise CubeBufferError("L1→L0A/L0B uses LoadData(dst, src, LoadData2DParams(...)), not DataCopy")
        raise QueuePositionError(f"no DataCopy path {src.buffer}→{dst.buffer}")
    raise ParamError(f"DataCopy needs GlobalTensor/LocalTensor operands, got {type(dst).__name__}, {type(src).__name__}")


def DataCopy(dst, src, count_or_params) -> None:
    """``DataCopy(dst, src, count)``, strided ``(dst, src, DataCopyParams)`` or ``(l1, gm, Nd2NzParams)``."""
    if isinstance(count_or_params, Nd2NzParams):
        copy_path(dst, src)
        return copy_nd2nz(dst, src, count_or_params)
    path = copy_path(dst, src)
    _check_types(dst, src, path)
    size = itemsize(dst.dtype)
    if isinstance(count_or_params, DataCopyParams):
        p = count_or_params
        _check_block_params(p.blockCount, p.blockLen)
        rows, row = p.blockCount, p.blockLen * BLOCK // size
        src_pitch, dst_pitch = (p.blockLen + p.srcStride) * BLOCK // size, (p.blockLen + p.dstStride) * BLOCK // size
    else:
        count = int(count_or_params)
        if count < 0:
            raise ParamError(f"DataCopy count must be ≥ 0, got {count}")
        if count * size % BLOCK:
            raise AlignmentError(
                f"DataCopy of {count} {dst.dtype} = {count * size} B is not a multiple of 32 B (the chip rounds it "
                f"down to {count * size // BLOCK * BLOCK // size} elements): copy whole 32 B blocks, or use "
                f"DataCopyPad for the tail")
        rows, row, src_pitch, dst_pitch = 1, count, count, count
    _move(dst, src, path, rows, row, src_pitch, dst_pitch, rows * row * size)


def DataCopyPad(dst, src, params: DataCopyExtParams, pad: DataCopyPadExtParams | None = None) -> None:
    """Rows of any byte length between GM and UB; each UB row starts on a 32 B boundary."""
    path = copy_path(dst, src)
    if path not in ("GM->UB", "UB->GM"):
        raise QueuePositionError(f"DataCopyPad moves between GM and UB only, not {path}")
    _check_types(dst, src, path)
    size = itemsize(dst.dtype)
    if params.blockLen % size or params.blockLen <= 0 or not 1 <= params.blockCount <= 4095:
        raise ParamError(f"DataCopyPad blockLen must be a positive multiple of {size} B and blockCount in [1, 4095]")
    row = params.blockLen // size
    ub_row = -(-params.blockLen // BLOCK) * BLOCK // size
    gm_gap, ub_gap = (params.srcStride, params.dstStride) if path == "GM->UB" else (params.dstStride, params.srcStride)
    gm_pitch, ub_pitch = row + gm_gap // size, ub_row + ub_gap * BLOCK // size
    src_pitch, dst_pitch = (gm_pitch, ub_pitch) if path == "GM->UB" else (ub_pitch, gm_pitch)
    if pad is not None and pad.isPad and path == "GM->UB" and ub_row > row:
        require_number(pad.paddingValue, "DataCopyPad's paddingValue")
        padding = _strided(dst, params.blockCount, ub_row, dst_pitch)
        padding[:, row:] = pad.paddingValue
    _move(dst, src, path, params.blockCount, row, src_pitch, dst_pitch,
          params.blockCount * ub_row * size)


def _check_types(dst, src, path: str) -> None:
    if dst.dtype != src.dtype:
        raise DtypeError(f"DataCopy {path} between {src.dtype} and {dst.dtype}: copies do not convert, use Cast in UB")
    for operand in (dst, src):
        if isinstance(operand, LocalTensor):
            operand._require_alignment(f"DataCopy {path}")


def _check_block_params(count: int, length: int) -> None:
    if not 1 <= count <= 4095 or not 1 <= length <= 65535:
        raise ParamError(f"DataCopyParams blockCount must be in [1, 4095] and blockLen in [1, 65535], got {count}, {length}")


def _strided(tensor, rows: int, row: int, pitch: int) -> np.ndarray:
    """A (rows, row) numpy view of ``tensor`` with ``pitch`` elements between row starts."""
    return rows_view(tensor._span(0, (rows - 1) * pitch + row), rows, row, pitch)


def _move(dst, src, path: str, rows: int, row: int, src_pitch: int, dst_pitch: int, nbytes: int) -> None:
    if rows == 0 or row == 0:
        return
    source, target = _strided(src, rows, row, src_pitch), _strided(dst, rows, row, dst_pitch)
    if isinstance(src, GlobalTensor):
        src._touch(source, False, f"DataCopy {path}")
    target[...] = source
    if isinstance(dst, GlobalTensor):
        dst._touch(target, True, f"DataCopy {path}")
    core = current_core()
    reads = [core.gm_slot(src._addr) if isinstance(src, GlobalTensor) else src._slot]
    writes = [core.gm_slot(dst._addr) if isinstance(dst, GlobalTensor) else dst._slot]
    if path.startswith("GM"):
        core.gm_read += nbytes
    elif path.endswith("GM"):
        core.gm_write += nbytes
    else:
        core.local_bytes += nbytes
    cycles = core.dma_cycles(path, nbytes, rows)
    core.timeline.record(f"DataCopy {path}", PIPE_OF_PATH[path], cycles, reads, writes, nbytes)
