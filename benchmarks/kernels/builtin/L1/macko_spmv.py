"""Sparse matrix-vector product y = A x with A in MACKO format; the reference is the dense fp16 GEMV.

MACKO stores each row's nonzeros as fp16 values with 4-bit column gaps (column = previous + gap + 1, the
first entry counting from column 0), two gaps per byte (low nibble first). A gap above 15 is bridged by
explicit zero entries with gap 15; each row is padded with (0, gap 0) entries to a multiple of 8, and
row_ptr (int32, M + 1) gives every row's first entry. Padding may step past column K - 1: skip it.
The matrix is fixed (seeded); only x changes between trials. Output: fp32 (M,).
"""

import functools

import torch
import torch.nn as nn

M = 4096
K = 4096
DENSITY = 0.5
GPU_SHAPES = {'M': 8192, 'K': 8192}
ATOL = 2e-2
RTOL = 2e-2


def dense_matrix():
    """The fixed fp16 sparse matrix (uniformly random positions at DENSITY), scaled so y is of order 1."""
    generator = torch.Generator().manual_seed(0)
    values = (torch.randn(M, K, generator=generator) / (K * DENSITY) ** 0.5).half()  # outputs of order 1
    keep = torch.rand(M, K, generator=generator) < DENSITY
    return torch.where(keep & (values != 0), values, torch.zeros((), dtype=torch.float16))


@functools.lru_cache(maxsize=1)
def macko_arrays():
    """(values fp16, packed gaps uint8, row_ptr int32) of dense_matrix()."""
    dense = dense_matrix()
    rows, cols = dense.nonzero(as_tuple=True)
    first = torch.ones_like(rows, dtype=torch.bool)
    first[1:] = rows[1:] != rows[:-1]
    previous = torch.where(first, torch.full_like(cols, -1), torch.roll(cols, 1))
    gaps = cols - previous - 1
    bridges = gaps // 16
    per_row = torch.zeros(M, dtype=torch.long).index_add_(0, rows, bridges + 1)
    padded = (per_row + 7) // 8 * 8
    row_ptr = torch.zeros(M + 1, dtype=torch.long)
    row_ptr[1:] = padded.cumsum(0)
    slot_in_row = (bridges + 1).cumsum(0) - 1
    row_first_slot = torch.zeros(M + 1, dtype=torch.long)
    row_first_slot[1:] = per_row.cumsum(0)
    slots = row_ptr[rows] + slot_in_row - row_first_slot[rows]
    total = int(row_ptr[-1])
    slot_rows = torch.repeat_interleave(torch.arange(M), padded)
    used = torch.arange(total) - row_ptr[slot_rows] < per_row[slot_rows]
    all_gaps = torch.where(used, 15, 0).to(torch.uint8)
    all_gaps[slots] = (gaps - 16 * bridges).to(torch.uint8)
    values = torch.zeros(total, dtype=torch.float16)
    values[slots] = dense[rows, cols]
    packed = (all_gaps[0::2] | (all_gaps[1::2] << 4)).to(torch.uint8)
    return values, packed, row_ptr.to(torch.int32)


RANGE_CHECK = False
"""The values are an encoding of the model's own matrix: scaled, they no longer encode it (see the range trial)."""


class Model(nn.Module):
    """Dense fp16 GEMV on the same matrix (the baseline to beat); ignores the compressed arrays."""

    def __init__(self):
        super().__init__()
        self.register_buffer("weight", dense_matrix())

    def forward(self, values, gaps, row_ptr, x):
        return torch.mv(self.weight, x.to(self.weight.dtype)).float()


def get_inputs():
    values, gaps, row_ptr = macko_arrays()
    return [values.clone(), gaps.clone(), row_ptr.clone(), torch.randn(K)]


def get_init_inputs():
    return []
