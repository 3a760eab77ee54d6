import pytest

from numerics.sparse.macko import compress
from numerics.sparse.storage import csr_bytes, density_table, macko_bytes, random_sparse, storage_row


def test_storage_count_is_exact_for_a_known_matrix():
    dense = random_sparse(64, 256, 0.5, seed=1)
    matrix = compress(dense)
    entries = matrix.entries
    assert macko_bytes(matrix) == 2 * entries + entries // 2 + 4 * 65
    assert csr_bytes(matrix.nnz, 64) == 6 * matrix.nnz + 4 * 65


def test_half_density_saves_about_one_point_six_times_and_beats_csr():
    row = storage_row(random_sparse(512, 1024, 0.5, seed=0))
    assert row["explicit_zeros"] < 10  # P(gap > 15) = 2^-16 at 50 % density
    assert row["macko_reduction"] == pytest.approx(1.6, abs=0.05)  # 16 bits / (0.5 x 20 bits)
    assert row["csr_reduction"] == pytest.approx(2 / 3, abs=0.01)


def test_table_by_density_grows_with_sparsity_and_counts_bridges():
    rows = density_table(densities=(0.5, 0.1), rows=256, cols=512)
    assert rows[1]["macko_reduction"] > 5 > rows[0]["macko_reduction"]
    assert rows[1]["explicit_zeros"] > 0.15 * rows[1]["nnz"]  # 0.9^16 of gaps overflow at 10 % density
    assert rows[1]["macko_reduction"] > rows[1]["csr_reduction"]
