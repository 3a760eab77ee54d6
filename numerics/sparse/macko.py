"""The MACKO format: fp16 values, 4-bit column gaps, explicit zeros on gap overflow, rows padded to 8.

Within a row, each entry's gap is the number of columns skipped since the previous entry (the first
entry counts from column 0), so ``column = previous + gap + 1``. A gap above 15 is bridged by explicit
zero entries with gap 15. Each row's entries are padded with (value 0, gap 0) to a multiple of 8, and
``row_ptr`` gives every row's first entry. Gaps are packed two per byte, low nibble first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_GAP = 15
ROW_ALIGN = 8


@dataclass(frozen=True)
class MackoMatrix:
    """A matrix in MACKO format."""

    values: np.ndarray
    """fp16 values of every entry (real, explicit zero, padding)."""
    gaps: np.ndarray
    """uint8, two 4-bit gaps per byte (low nibble = even entry)."""
    row_ptr: np.ndarray
    """int32, ``rows + 1`` offsets into ``values``."""
    shape: tuple[int, int]
    nnz: int
    """Nonzeros of the original matrix."""

    explicit_zeros: int
    """Zero entries inserted to bridge gaps longer than 15 columns."""
    padding: int
    """Entries added to round each row up to a multiple of 8."""

    @property
    def entries(self) -> int:
        return len(self.values)


def pack_gaps(gaps: np.ndarray) -> np.ndarray:
    """Two 4-bit gaps per byte; ``len(gaps)`` must be even."""
    gaps = gaps.astype(np.uint8)
    return (gaps[0::2] | (gaps[1::2] << 4)).astype(np.uint8)


def unpack_gaps(packed: np.ndarray, count: int) -> np.ndarray:
    out = np.empty(2 * len(packed), dtype=np.uint8)
    out[0::2], out[1::2] = packed & 0x0F, packed >> 4
    return out[:count]


def _encode_row(row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values and gaps of one row, with bridging zeros and padding."""
    columns = np.nonzero(row)[0]
    gaps = np.diff(columns, prepend=-1) - 1
    bridges = gaps // (MAX_GAP + 1)
    per_entry = bridges + 1
    total = int(per_entry.sum())
    padded = -(-total // ROW_ALIGN) * ROW_ALIGN
    values, out_gaps = np.zeros(padded, dtype=np.float16), np.zeros(padded, dtype=np.uint8)
    real_slots = np.cumsum(per_entry) - 1
    values[real_slots] = row[columns]
    out_gaps[:total] = MAX_GAP
    out_gaps[real_slots] = gaps - (MAX_GAP + 1) * bridges
    return values, out_gaps


def compress(dense: np.ndarray) -> MackoMatrix:
    """Encode a 2-D matrix (cast to fp16; zeros are dropped)."""
    dense = np.asarray(dense, dtype=np.float16)
    if dense.ndim != 2:
        raise ValueError(f"MACKO stores 2-D matrices; got shape {dense.shape}")
    rows = [_encode_row(row) for row in dense]
    lengths = np.array([len(v) for v, _ in rows], dtype=np.int64)
    row_ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    values = np.concatenate([v for v, _ in rows]) if rows else np.zeros(0, np.float16)
    gaps = np.concatenate([g for _, g in rows]) if rows else np.zeros(0, np.uint8)
    nnz = int(np.count_nonzero(dense))
    padding = sum(int(np.count_nonzero((v == 0) & (g == 0))) for v, g in rows)
    return MackoMatrix(values, pack_gaps(gaps), row_ptr, dense.shape, nnz, len(values) - nnz - padding, padding)


def entry_coordinates(matrix: MackoMatrix) -> tuple[np.ndarray, np.ndarray]:
    """Row and column of every entry; padding columns past the end are clamped (their values are 0)."""
    lengths = np.diff(matrix.row_ptr).astype(np.int64)
    rows = np.repeat(np.arange(matrix.shape[0]), lengths)
    steps = unpack_gaps(matrix.gaps, matrix.entries).astype(np.int64) + 1
    running = np.cumsum(steps)
    row_base = np.concatenate([[0], running])[matrix.row_ptr[:-1].astype(np.int64)]
    columns = running - np.repeat(row_base, lengths) - 1
    return rows, np.minimum(columns, matrix.shape[1] - 1)


def decompress(matrix: MackoMatrix) -> np.ndarray:
    """The dense fp16 matrix (exact inverse of :func:`compress`)."""
    rows, columns = entry_coordinates(matrix)
    dense = np.zeros(matrix.shape, dtype=np.float16)
    real = matrix.values != 0
    dense[rows[real], columns[real]] = matrix.values[real]
    return dense


def spmv(matrix: MackoMatrix, x: np.ndarray) -> np.ndarray:
    """Reference y = A x from the compressed form, accumulating in fp32."""
    rows, columns = entry_coordinates(matrix)
    products = matrix.values.astype(np.float32) * np.asarray(x, dtype=np.float32)[columns]
    return np.bincount(rows, weights=products, minlength=matrix.shape[0]).astype(np.float32)
