"""Exact byte counts of dense fp16, MACKO and CSR storage, and the table by density."""

from __future__ import annotations

import numpy as np

from numerics.sparse.macko import MackoMatrix, compress

FP16_BYTES = 2
INDEX_BYTES = 4


def macko_bytes(matrix: MackoMatrix) -> int:
    """fp16 values + 4-bit gaps (two per byte) + int32 row pointers."""
    return FP16_BYTES * matrix.entries + (matrix.entries + 1) // 2 + INDEX_BYTES * len(matrix.row_ptr)


def dense_fp16_bytes(shape: tuple[int, int]) -> int:
    return FP16_BYTES * shape[0] * shape[1]


def csr_bytes(nnz: int, rows: int) -> int:
    """fp16 values + int32 column indices + int32 row pointers."""
    return (FP16_BYTES + INDEX_BYTES) * nnz + INDEX_BYTES * (rows + 1)


def random_sparse(rows: int, cols: int, density: float, seed: int = 0) -> np.ndarray:
    """An fp16 matrix with uniformly random nonzero positions at ``density``."""
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((rows, cols)).astype(np.float16)
    values[values == 0] = 1.0
    return np.where(rng.random((rows, cols)) < density, values, np.float16(0))


def storage_row(dense: np.ndarray) -> dict:
    """Byte counts and reductions over dense fp16 for one matrix."""
    matrix = compress(dense)
    rows, cols = dense.shape
    dense_bytes, macko, csr = dense_fp16_bytes(dense.shape), macko_bytes(matrix), csr_bytes(matrix.nnz, rows)
    return {"density": round(matrix.nnz / (rows * cols), 4), "nnz": matrix.nnz,
            "explicit_zeros": matrix.explicit_zeros, "padding": matrix.padding,
            "dense_fp16_bytes": dense_bytes, "macko_bytes": macko, "csr_bytes": csr,
            "macko_reduction": round(dense_bytes / macko, 3), "csr_reduction": round(dense_bytes / csr, 3),
            "macko_bits_per_nnz": round(8 * macko / max(matrix.nnz, 1), 2)}


def density_table(densities=(0.9, 0.7, 0.5, 0.3, 0.2, 0.1, 0.05), rows: int = 1024, cols: int = 1024,
                  seed: int = 0) -> list[dict]:
    """Storage of uniformly random matrices at each density."""
    return [storage_row(random_sparse(rows, cols, density, seed)) for density in densities]
