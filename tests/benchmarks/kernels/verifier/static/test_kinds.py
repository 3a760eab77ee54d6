"""The kind lattice: joins meet at UNKNOWN, containers give their items' kind."""

from benchmarks.kernels.verifier.static.kinds import NONE, SCALAR, TENSOR, UNKNOWN, Kind, Tag, element, join, join_all


def test_join_is_the_least_upper_bound():
    assert join(SCALAR, SCALAR) == SCALAR
    assert join(NONE, TENSOR) == TENSOR and join(TENSOR, NONE) == TENSOR
    assert join(SCALAR, TENSOR) == UNKNOWN
    assert join(Kind(Tag.LIB, "a"), Kind(Tag.LIB, "b")) == UNKNOWN


def test_join_all_of_nothing_is_plain_data():
    assert join_all([]) == SCALAR
    assert join_all([TENSOR, TENSOR]) == TENSOR


def test_items_of_scalars_and_tensors_keep_their_kind():
    assert element(SCALAR) == SCALAR and element(TENSOR) == TENSOR
    assert element(Kind(Tag.LIB)) == UNKNOWN
    assert TENSOR.is_data and not Kind(Tag.FUNC, "f").is_data
