from benchmarks.drc.geometry import Block, compose, ring
from tools.drc.render import render_png, render_text


def gds() -> bytes:
    block = Block(note="b").add_box("met1", 0, 0, 1000, 140).add_box("met1", 1000, 0, 2000, 140)
    ring(block, "met1", 0, 1000, 600, 200)
    arrayed = Block(note="a", array=(3, 1, 500, 0)).add_box("via", 0, 0, 150, 150)
    return compose([block, arrayed], {"met1": (68, 20), "via": (68, 44)})


def test_text_merges_flattens_and_shows_holes():
    text = render_text(gds(), {(68, 20): "met1"})
    assert "layer 68/20 met1 (2 polygons after flattening)" in text
    assert "box (0,0)-(2,0.14) 2x0.14" in text
    assert " hole " in text
    assert "layer 68/44 (3 polygons after flattening)" in text


def test_png_is_written(tmp_path):
    data = render_png(gds(), tmp_path / "x.png", title="x")
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and (tmp_path / "x.png").read_bytes() == data
