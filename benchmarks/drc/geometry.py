"""Geometry blocks in integer database units (1 nm) and their composition into deterministic GDS."""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass, field

import klayout.db as db

DBU = 0.001
"""Database unit in µm: coordinates are integer nanometres."""
GAP = 6000
"""Distance between blocks (nm): beyond every rule distance, so blocks never interact."""


def nm(value_um: float) -> int:
    """Micrometres to integer nanometres."""
    return int(round(value_um / DBU))


@dataclass
class Block:
    """Shapes on named layers around a local origin; optionally repeated as a cell array."""

    shapes: list[tuple[str, db.Polygon]] = field(default_factory=list)
    note: str = ""
    array: tuple[int, int, int, int] | None = None
    """(columns, rows, x pitch, y pitch) when the block is placed as an array instance."""

    def add_box(self, layer: str, left: int, bottom: int, right: int, top: int) -> "Block":
        self.shapes.append((layer, db.Polygon(db.Box(left, bottom, right, top))))
        return self

    def add_polygon(self, layer: str, points: list[tuple[int, int]], holes: list[list[tuple[int, int]]] = ()) -> "Block":
        polygon = db.Polygon([db.Point(x, y) for x, y in points])
        for hole in holes:
            polygon.insert_hole([db.Point(x, y) for x, y in hole])
        self.shapes.append((layer, polygon))
        return self

    def bbox(self) -> db.Box:
        box = db.Box()
        for _, polygon in self.shapes:
            box += polygon.bbox()
        if self.array and not box.empty():
            columns, rows, pitch_x, pitch_y = self.array
            box += box.moved((columns - 1) * pitch_x, (rows - 1) * pitch_y)
        return box


def ring(block: Block, layer: str, x: int, y: int, outer: int, hole: int) -> Block:
    """A square of side ``outer`` with a centred square hole of side ``hole``."""
    margin = (outer - hole) // 2
    square = [(x, y), (x + outer, y), (x + outer, y + outer), (x, y + outer)]
    inner = [(x + margin, y + margin), (x + margin + hole, y + margin),
             (x + margin + hole, y + margin + hole), (x + margin, y + margin + hole)]
    return block.add_polygon(layer, square, [inner])


def diagonal_rect(block: Block, layer: str, x: int, y: int, half: int, run: int) -> Block:
    """A rectangle rotated by 45 degrees with grid vertices: width ``half * sqrt(2)``, length ``run * sqrt(2)``."""
    points = [(x, y), (x + run, y + run), (x + run - half, y + run + half), (x - half, y + half)]
    return block.add_polygon(layer, points)


def diagonal_half(width: float, round_up: bool) -> int:
    """The ``half`` of :func:`diagonal_rect` whose width is just above (or just below) ``width`` nm."""
    exact = width / math.sqrt(2)
    return int(math.ceil(exact)) + 1 if round_up else int(math.floor(exact)) - 1


def compose(blocks: list[Block], layers: dict[str, tuple[int, int]], boundary: tuple[int, int, int, int] | None = None,
            boundary_layer: tuple[int, int] = (235, 4)) -> bytes:
    """Place blocks left to right, each in its own cell (arrays as array instances); return GDS bytes."""
    layout = db.Layout()
    layout.dbu = DBU
    top = layout.create_cell("TOP")
    indexes = {name: layout.layer(*numbers) for name, numbers in layers.items()}
    cursor = 0
    for number, block in enumerate(blocks):
        cell = layout.create_cell(f"B{number}_{block.note or 'block'}"[:60])
        for layer, polygon in block.shapes:
            cell.shapes(indexes[layer]).insert(polygon)
        box = block.bbox()
        shift = db.Trans(cursor - box.left, 0) if boundary is None else db.Trans()
        top.insert(_instance(cell.cell_index(), shift, block.array))
        cursor += box.width() + GAP
    if boundary is not None:
        top.shapes(layout.layer(*boundary_layer)).insert(db.Box(*boundary))
    return _gds_bytes(layout)


def _instance(cell_index: int, trans: db.Trans, array: tuple[int, int, int, int] | None) -> db.CellInstArray:
    if array is None:
        return db.CellInstArray(cell_index, trans)
    columns, rows, pitch_x, pitch_y = array
    return db.CellInstArray(cell_index, trans, db.Vector(pitch_x, 0), db.Vector(0, pitch_y), columns, rows)


def _gds_bytes(layout: db.Layout) -> bytes:
    options = db.SaveLayoutOptions()
    options.format = "GDS2"
    options.gds2_write_timestamps = False
    handle, path = tempfile.mkstemp(suffix=".gds")
    os.close(handle)
    try:
        layout.write(path, options)
        with open(path, "rb") as stream:
            return stream.read()
    finally:
        os.unlink(path)
