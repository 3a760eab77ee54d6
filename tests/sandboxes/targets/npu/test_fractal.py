"""Padding to whole fractals (the layouts themselves are checked in test_cube.py)."""

import numpy as np

from sandboxes.targets.npu.fractal import pad


def test_padding_adds_zeros_and_an_aligned_matrix_is_not_copied():
    matrix = np.arange(6, dtype=np.float32).reshape(2, 3)
    padded = pad(matrix, 16, 8)
    assert padded.shape == (16, 8) and (padded[:2, :3] == matrix).all() and padded.sum() == matrix.sum()
    assert pad(padded, 16, 8) is padded
