from benchmarks.drc.spec import LabelledLayout
from benchmarks.drc.stack import CUT_PAIRS, STACK


def test_layouts_store_gds_compactly_and_exactly():
    gds = bytes(range(256)) * 8
    layout = LabelledLayout.from_gds("x", gds, {"a": True})
    assert layout.gds == gds and len(layout.gds_z) < len(gds)


def test_stack_is_sky130_like():
    assert (STACK["met1"].layer, STACK["met1"].datatype) == (68, 20)
    assert all(STACK[cut].cut > 0 for _, cut in CUT_PAIRS)
