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


def nested_arrays(repeats: int) -> bytes:
    """A tiny GDS whose top holds a repeats x repeats array of a cell holding such an array of one box."""
    import tempfile

    import klayout.db as db

    layout = db.Layout()
    layer = layout.layer(1, 0)
    leaf, middle, top = (layout.create_cell(name) for name in ("LEAF", "MID", "TOP"))
    leaf.shapes(layer).insert(db.Box(0, 0, 10, 10))
    for parent, child in ((middle, leaf), (top, middle)):
        step = 20 if child is leaf else 20 * repeats
        parent.insert(db.CellInstArray(child.cell_index(), db.Trans(), db.Vector(step, 0), db.Vector(0, step),
                                       repeats, repeats))
    with tempfile.NamedTemporaryFile(suffix=".gds") as handle:
        layout.write(handle.name)
        return open(handle.name, "rb").read()


def test_a_layout_that_flattens_to_too_many_shapes_is_refused_before_flattening():
    import pytest

    from sandboxes.errors import UserError
    from tools.drc.render import flat_shape_count, read_layout

    assert flat_shape_count(read_layout(nested_arrays(3))) == 81
    assert "81 polygons after flattening" in render_text(nested_arrays(3))
    bomb = nested_arrays(1000)
    assert len(bomb) < 1000 and flat_shape_count(read_layout(bomb)) == 10**12
    with pytest.raises(UserError, match="flattens to 1,000,000,000,000 shapes"):
        render_text(bomb)
