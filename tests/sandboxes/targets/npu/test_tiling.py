"""Tiling structs cross from host to kernel as bytes."""

import pytest

from sandboxes.targets.npu.errors import ParamError
from sandboxes.targets.npu.tiling import TilingData, device_copy


class Demo(TilingData):
    total: int
    scale: float
    flag: bool


def test_round_trip_rounds_floats_to_c_float():
    copy = device_copy(Demo(10, 0.1, True))
    assert copy.total == 10 and copy.flag is True
    assert copy.scale != 0.1 and copy.scale == pytest.approx(0.1, rel=1e-7)


def test_non_numeric_fields_are_rejected():
    with pytest.raises(ParamError, match="int, float or bool"):
        class Bad(TilingData):
            name: str


def test_the_kernels_copy_holds_the_fields_only_whatever_the_class_was_given():
    """A solution replaced TilingData.device_copy with ``lambda self: self`` and attached host tensors: the kernel
    computed with numpy on them, uncharged (5x on relu, 9.4x on an L2 conv)."""
    tiling = Demo(10, 0.5, True)
    tiling.x = [1.0, 2.0]  # a host object riding along
    original, Demo.device_copy = getattr(Demo, "device_copy", None), lambda self: self
    try:
        copy = device_copy(tiling)
    finally:
        del Demo.device_copy
    assert copy is not tiling and (copy.total, copy.scale, copy.flag) == (10, 0.5, True)
    assert not hasattr(copy, "x") and original is None


def test_a_value_too_large_for_its_field_is_a_param_error():
    with pytest.raises(ParamError, match="cannot be serialised"):
        device_copy(Demo(10, 1e300, True))  # float overflow, not a raw OverflowError from struct
