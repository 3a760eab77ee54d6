"""Render a GDS layout as text (for models and judges) or as a PNG (for people)."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import klayout.db as db

from sandboxes.errors import UserError

MAX_FLAT_SHAPES = 1_000_000
"""Layouts that flatten to more shapes are not rendered (flattening is KLayout's C++, beyond any time limit here)."""


def read_layout(gds: bytes) -> db.Layout:
    """Load GDS bytes into a KLayout layout."""
    with tempfile.NamedTemporaryFile(suffix=".gds") as handle:
        handle.write(gds)
        handle.flush()
        layout = db.Layout()
        layout.read(handle.name)
    return layout


def flat_shape_count(layout: db.Layout) -> int:
    """How many shapes the top cell holds once flattened, counted over the hierarchy without flattening it (a
    354-byte GDS of two nested 1000 x 1000 arrays holds 10^12)."""
    top = layout.top_cell()
    if top is None:
        return 0
    copies, total = {top.cell_index(): 1}, 0
    for index in layout.each_cell_top_down():
        count = copies.get(index, 0)
        if not count:
            continue
        cell = layout.cell(index)
        total += count * sum(cell.shapes(layer).size() for layer in layout.layer_indexes())
        for instance in cell.each_inst():
            copies[instance.cell_index] = copies.get(instance.cell_index, 0) + count * instance.cell_inst.size()
    return total


def flat_polygons(layout: db.Layout) -> dict[tuple[int, int], list[db.DPolygon]]:
    """Every polygon of the top cell, flattened, in micrometres, by (layer, datatype); a ``UserError`` when that
    would be more than :data:`MAX_FLAT_SHAPES` shapes."""
    top = layout.top_cell()
    shapes: dict[tuple[int, int], list[db.DPolygon]] = {}
    if top is None:
        return shapes
    if (count := flat_shape_count(layout)) > MAX_FLAT_SHAPES:
        raise UserError(f"the layout flattens to {count:,} shapes (at most {MAX_FLAT_SHAPES:,} are rendered)")
    for index in layout.layer_indexes():
        info = layout.get_info(index)
        region = db.Region(top.begin_shapes_rec(index)).merged()
        polygons = [polygon.to_dtype(layout.dbu) for polygon in region.each()]
        if polygons:
            shapes[(info.layer, info.datatype)] = sorted(polygons, key=lambda p: (p.bbox().left, p.bbox().bottom))
    return shapes


def render_text(gds: bytes, layer_names: dict[tuple[int, int], str] | None = None, limit: int = 60) -> str:
    """A layout as lines ``layer: polygon`` (points in µm), holes included, at most ``limit`` per layer."""
    layout = read_layout(gds)
    names = layer_names or {}
    lines = [f"cells: {layout.cells()}, top: {layout.top_cell().name if layout.top_cell() else '-'}"]
    for key, polygons in sorted(flat_polygons(layout).items()):
        label = names.get(key, "")
        lines.append(f"layer {key[0]}/{key[1]} {label} ({len(polygons)} polygons after flattening)".replace("  ", " "))
        for polygon in polygons[:limit]:
            lines.append("  " + _polygon_text(polygon))
        if len(polygons) > limit:
            lines.append(f"  ... {len(polygons) - limit} more")
    return "\n".join(lines)


def _polygon_text(polygon: db.DPolygon) -> str:
    box = polygon.bbox()
    if polygon.is_box():
        return f"box ({box.left:g},{box.bottom:g})-({box.right:g},{box.top:g}) {box.width():g}x{box.height():g}"
    hull = " ".join(f"({p.x:g},{p.y:g})" for p in polygon.each_point_hull())
    holes = "".join(" hole " + " ".join(f"({p.x:g},{p.y:g})" for p in polygon.each_point_hole(h))
                    for h in range(polygon.holes()))
    return f"polygon {hull}{holes}"


def render_png(gds: bytes, path: str | Path | None = None, title: str = "") -> bytes:
    """Draw every layer's polygons with matplotlib; return the PNG bytes (and write ``path`` if given)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Polygon as Patch

    figure, axes = plt.subplots(figsize=(6, 6))
    colours = plt.get_cmap("tab10")
    for number, (key, polygons) in enumerate(sorted(flat_polygons(read_layout(gds)).items())):
        for index, polygon in enumerate(polygons):
            points = [(p.x, p.y) for p in polygon.each_point_hull()]
            axes.add_patch(Patch(points, closed=True, alpha=0.45, color=colours(number % 10),
                                 label=f"{key[0]}/{key[1]}" if index == 0 else None))
    axes.autoscale_view()
    axes.set_aspect("equal")
    axes.set_title(title)
    axes.legend(loc="upper right", fontsize="small")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    plt.close(figure)
    if path is not None:
        Path(path).write_bytes(buffer.getvalue())
    return buffer.getvalue()
