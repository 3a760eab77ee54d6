import numpy as np
import pytest

from numerics.sparse.macko import compress, decompress, pack_gaps, spmv, unpack_gaps
from numerics.sparse.storage import random_sparse


def test_a_hand_made_row_is_encoded_exactly():
    row = np.zeros((1, 40), dtype=np.float16)
    row[0, [0, 3, 37]] = [1.5, -2.0, 4.0]
    matrix = compress(row)
    # gaps: col 0 -> 0, col 3 -> 2, col 37 -> 33 = 16 + 16 + 1: two explicit zeros with gap 15, then gap 1
    assert matrix.values[:5].tolist() == [1.5, -2.0, 0.0, 0.0, 4.0]
    assert unpack_gaps(matrix.gaps, matrix.entries)[:5].tolist() == [0, 2, 15, 15, 1]
    assert matrix.entries == 8 and matrix.padding == 3 and matrix.explicit_zeros == 2 and matrix.nnz == 3
    assert matrix.row_ptr.tolist() == [0, 8]


@pytest.mark.parametrize("density", [0.0, 0.02, 0.1, 0.5, 1.0])
def test_round_trip_is_exact_and_spmv_matches_dense(density):
    dense = random_sparse(67, 301, density, seed=3)
    matrix = compress(dense)
    assert np.array_equal(decompress(matrix), dense)
    assert all(length % 8 == 0 for length in np.diff(matrix.row_ptr))
    assert matrix.entries == matrix.nnz + matrix.explicit_zeros + matrix.padding
    x = np.random.default_rng(0).standard_normal(301).astype(np.float32)
    np.testing.assert_allclose(spmv(matrix, x), dense.astype(np.float32) @ x, rtol=1e-5, atol=1e-4)


def test_gaps_pack_two_per_byte():
    gaps = np.array([1, 15, 0, 7], dtype=np.uint8)
    assert pack_gaps(gaps).tolist() == [0xF1, 0x70]
    assert unpack_gaps(pack_gaps(gaps), 4).tolist() == gaps.tolist()


def test_non_matrix_input_is_rejected():
    with pytest.raises(ValueError, match="2-D"):
        compress(np.zeros(5))
