"""Tiling structs cross from host to kernel as bytes."""

import pytest

from sandboxes.targets.npu.errors import ParamError
from sandboxes.targets.npu.tiling import TilingData


class Demo(TilingData):
    total: int
    scale: float
    flag: bool


def test_round_trip_rounds_floats_to_c_float():
    copy = Demo(10, 0.1, True).device_copy()
    assert copy.total == 10 and copy.flag is True
    assert copy.scale != 0.1 and copy.scale == pytest.approx(0.1, rel=1e-7)


def test_non_numeric_fields_are_rejected():
    with pytest.raises(ParamError, match="int, float or bool"):
        class Bad(TilingData):
            name: str
