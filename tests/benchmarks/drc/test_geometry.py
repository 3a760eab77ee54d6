import math

from benchmarks.drc.geometry import GAP, Block, compose, diagonal_half, diagonal_rect, nm, ring
from tools.drc.render import read_layout


def test_nm_and_diagonal_widths():
    assert nm(0.14) == 140
    assert diagonal_half(140, True) * math.sqrt(2) > 140 > diagonal_half(140, False) * math.sqrt(2)


def test_compose_is_deterministic_places_blocks_apart_and_keeps_arrays():
    blocks = [Block(note="a").add_box("met1", 0, 0, 100, 100),
              Block(note="b", array=(3, 1, 500, 0)).add_box("met1", 0, 0, 100, 100)]
    ring(blocks[0], "met1", 200, 0, 600, 200)
    diagonal_rect(blocks[0], "met1", 0, 1000, 100, 500)
    layers = {"met1": (68, 20)}
    gds = compose(blocks, layers)
    assert gds == compose(blocks, layers)
    layout = read_layout(gds)
    top = layout.top_cell()
    instances = sorted(top.each_inst(), key=lambda inst: inst.trans.disp.x)
    assert len(instances) == 2 and instances[1].na * instances[1].nb == 3
    first_right = blocks[0].bbox().width()
    assert instances[0].trans.disp.x == -blocks[0].bbox().left  # first block starts at x = 0
    assert instances[1].trans.disp.x == first_right + GAP  # the next starts GAP after its right edge
    assert blocks[1].bbox().width() == 1100
