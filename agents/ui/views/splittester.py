"""SplitTester's panel: per task, the candidate decks with their suite verdicts and which selector picked which,
and every generated test layout drawn from its polygons (read with KLayout) beside the verdicts it expects and
each candidate's verdict on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.runtime.run import Run
from agents.ui.views.files import inside, read_json, read_text

MAX_POLYGONS = 2000
"""A layout with more polygons than this is drawn with its first ones only (and says so)."""


def view(run: Run) -> dict[str, Any]:
    report = run.read_report()
    rows = {row.get("task"): row for row in (report.rows if report else [])}
    folders = sorted(p for p in run.artifacts.iterdir() if (p / "selection.json").is_file()) \
        if run.artifacts.is_dir() else []
    return {"tasks": [task_view(run, folder, rows.get(folder.name, {})) for folder in folders]}


def task_view(run: Run, folder: Path, row: dict[str, Any]) -> dict[str, Any]:
    base = folder.relative_to(run.dir)
    selection = read_json(run, base / "selection.json") or {}
    evidence = read_json(run, base / "evidence.json") or {"categories": [], "tests": [], "verdicts": []}
    decks = [read_text(run, path.relative_to(run.dir)) for path in sorted(folder.glob("candidate_*.drc"))]
    scores = selection.get("scores", [])
    candidates = [{"index": i, "deck": deck, "success": (scores[i] if i < len(scores) else {}).get("success"),
                   "reason": (scores[i] if i < len(scores) else {}).get("reason"),
                   "picked_by": sorted(name for name, pick in selection.get("picks", {}).items() if pick == i)}
                  for i, deck in enumerate(decks)]
    tests = [{**test, "layout": layout(run, base / test["file"]),
              "verdicts": [row[i] if i < len(row) else None for row in evidence["verdicts"]]}
             for i, test in enumerate(evidence["tests"])]
    return {"task": folder.name, "row": row, "categories": evidence["categories"], "candidates": candidates,
            "tests": tests}


def layout(run: Run, relative: Path) -> dict[str, Any] | None:
    """The layout's polygons by layer (µm; hull and holes), its bounding box; None when it cannot be read."""
    path = inside(run, relative)
    if path is None:
        return None
    try:
        from tools.drc.render import flat_polygons, read_layout

        shapes = flat_polygons(read_layout(path.read_bytes()))
    except Exception as error:  # a damaged layout is shown as such, the rest of the page still works
        return {"error": f"{type(error).__name__}: {error}"}
    layers, count, box = [], 0, None
    for (layer, datatype), polygons in sorted(shapes.items()):
        drawn = []
        for polygon in polygons[: max(0, MAX_POLYGONS - count)]:
            drawn.append({"hull": [[p.x, p.y] for p in polygon.each_point_hull()],
                          "holes": [[[p.x, p.y] for p in polygon.each_point_hole(h)] for h in range(polygon.holes())]})
            edge = polygon.bbox()
            box = [min(box[0], edge.left), min(box[1], edge.bottom), max(box[2], edge.right),
                   max(box[3], edge.top)] if box else [edge.left, edge.bottom, edge.right, edge.top]
        count += len(drawn)
        layers.append({"layer": f"{layer}/{datatype}", "polygons": drawn, "total": len(polygons)})
    return {"layers": layers, "bbox": box, "truncated": sum(len(p) for p in shapes.values()) > count}
