"""Test helper: a case's geometry as PyPI-klayout Regions, an oracle independent of the Ruby decks."""

import klayout.db as db

from benchmarks.drc.geometry import compose
from benchmarks.drc.stack import STACK
from tools.drc.render import read_layout


def regions(block, names, boundary=None) -> dict[str, db.Region]:
    layers = {name: (STACK[name].layer, STACK[name].datatype) for name in names}
    layout = read_layout(compose([block], layers, boundary=boundary))
    top = layout.top_cell()
    return {name: db.Region(top.begin_shapes_rec(layout.layer(*numbers))).merged() for name, numbers in layers.items()}
