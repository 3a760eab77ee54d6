"""The ``shapes`` repository of the generated resolution benchmark: 2-D geometry with five planted bugs."""

from __future__ import annotations

from benchmarks.resolve.gen_types import Bug

GEOMETRY = '''"""Points and distances."""
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    x: float
    y: float


def distance(a, b):
    """Euclidean distance between two points."""
    return math.hypot(a.x - b.x, a.y - b.y)


def midpoint(a, b):
    return Point((a.x + b.x) / 2, (a.y + b.y) / 2)
'''

POLYGON = '''"""Simple polygons given as lists of points."""
from shapes.geometry import distance


def area(points):
    """The enclosed area (shoelace formula), whatever the orientation."""
    total = 0.0
    for a, b in zip(points, points[1:] + points[:1]):
        total += a.x * b.y - b.x * a.y
    return total / 2


def perimeter(points):
    """The length of the closed outline."""
    return sum(distance(a, b) for a, b in zip(points, points[1:]))


def centroid(points):
    """The mean of the vertices."""
    n = len(points)
    return (sum(p.x for p in points) / n, sum(p.y for p in points) / n)
'''

BBOX = '''"""Axis-aligned bounding boxes."""
from dataclasses import dataclass


@dataclass(frozen=True)
class BoundingBox:
    xmin: float
    ymin: float
    xmax: float
    ymax: float

    @classmethod
    def around(cls, points):
        xs, ys = [p.x for p in points], [p.y for p in points]
        return cls(min(xs), min(ys), max(xs), max(ys))

    def contains(self, point):
        """True for points inside the box or on its edge."""
        return self.xmin < point.x < self.xmax and self.ymin < point.y < self.ymax

    def intersects(self, other):
        """True when the two boxes share at least one point."""
        return (self.xmin <= other.xmax and other.xmin <= self.xmax) or \\
            (self.ymin <= other.ymax and other.ymin <= self.ymax)

    def width(self):
        return self.xmax - self.xmin
'''

UNITS = '''"""Length units."""

METRES = {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0}


def convert(value, source, target):
    """``value`` in unit ``source`` expressed in unit ``target``."""
    if source not in METRES or target not in METRES:
        raise ValueError(f"unknown unit: {source if source not in METRES else target}")
    return value * METRES[target] / METRES[source]
'''

TESTS = {
    "tests/test_polygon.py": '''from shapes.geometry import Point
from shapes.polygon import area, centroid

SQUARE = [Point(0, 0), Point(2, 0), Point(2, 2), Point(0, 2)]


def test_area_counter_clockwise():
    assert area(SQUARE) == 4.0


def test_centroid():
    assert centroid(SQUARE) == (1.0, 1.0)
''',
    "tests/test_bbox.py": '''from shapes.bbox import BoundingBox
from shapes.geometry import Point


def test_around():
    assert BoundingBox.around([Point(1, 5), Point(3, -1)]) == BoundingBox(1, -1, 3, 5)


def test_contains_inside():
    assert BoundingBox(0, 0, 4, 4).contains(Point(1, 2))


def test_disjoint_boxes():
    assert not BoundingBox(0, 0, 1, 1).intersects(BoundingBox(5, 5, 6, 6))
''',
    "tests/test_units.py": '''import pytest

from shapes.units import convert


def test_same_unit():
    assert convert(3.5, "m", "m") == 3.5


def test_unknown_unit():
    with pytest.raises(ValueError):
        convert(1, "m", "furlong")
''',
    "tests/test_geometry.py": '''from shapes.geometry import Point, distance, midpoint


def test_distance():
    assert distance(Point(0, 0), Point(3, 4)) == 5.0


def test_midpoint():
    assert midpoint(Point(0, 0), Point(2, 4)) == Point(1, 2)
''',
}

FILES = {"README.md": "# shapes\n2-D geometry helpers.\n", "shapes/__init__.py": '"""2-D geometry."""\n',
         "shapes/geometry.py": GEOMETRY, "shapes/polygon.py": POLYGON, "shapes/bbox.py": BBOX,
         "shapes/units.py": UNITS, **TESTS}
COMMITS = [("initial", "2024-03-01T00:00:00", FILES)]

BUGS = [
    Bug("shapes-1", 0, "shapes/polygon.py", "return total / 2", "return abs(total) / 2",
        "area is negative for clockwise polygons\n\n`area([Point(0, 0), Point(0, 2), Point(2, 2), Point(2, 0)])` "
        "returns -4.0; the docstring promises the enclosed area whatever the orientation.", "tests/test_polygon.py",
        "\n\ndef test_area_clockwise():\n    assert area(list(reversed(SQUARE))) == 4.0\n", ["test_area_clockwise"]),
    Bug("shapes-2", 0, "shapes/polygon.py", "zip(points, points[1:]))", "zip(points, points[1:] + points[:1]))",
        "perimeter misses the closing edge\n\nThe perimeter of the 2x2 square is reported as 6.0, not 8.0: the edge "
        "from the last vertex back to the first is not counted.", "tests/test_polygon.py",
        "\n\ndef test_perimeter_closed():\n    from shapes.polygon import perimeter\n\n    assert perimeter(SQUARE) == "
        "8.0\n", ["test_perimeter_closed"]),
    Bug("shapes-3", 0, "shapes/bbox.py",
        "return self.xmin < point.x < self.xmax and self.ymin < point.y < self.ymax",
        "return self.xmin <= point.x <= self.xmax and self.ymin <= point.y <= self.ymax",
        "BoundingBox.contains is False on the edge\n\nA box built with `BoundingBox.around(points)` does not contain "
        "its own corner points, although `contains` is documented to include the edge.", "tests/test_bbox.py",
        "\n\ndef test_contains_edge():\n    box = BoundingBox(0, 0, 4, 4)\n    assert box.contains(Point(0, 4))\n"
        "    assert box.contains(Point(4, 2))\n", ["test_contains_edge"]),
    Bug("shapes-4", 0, "shapes/bbox.py", "return (self.xmin <= other.xmax and other.xmin <= self.xmax) or \\",
        "return (self.xmin <= other.xmax and other.xmin <= self.xmax) and \\",
        "intersects is True for boxes that only overlap in x\n\n`BoundingBox(0, 0, 1, 1).intersects(BoundingBox(0, 5, "
        "1, 6))` is True, but the boxes are far apart vertically.", "tests/test_bbox.py",
        "\n\ndef test_overlap_in_one_axis_only():\n    assert not BoundingBox(0, 0, 1, 1).intersects(BoundingBox(0, 5, 1, 6))"
        "\n", ["test_overlap_in_one_axis_only"]),
    Bug("shapes-5", 0, "shapes/units.py", "return value * METRES[target] / METRES[source]",
        "return value * METRES[source] / METRES[target]",
        "convert gets the direction wrong\n\n`convert(250, 'cm', 'm')` returns 25000.0 instead of 2.5.",
        "tests/test_units.py", "\n\ndef test_cm_to_m():\n    assert convert(250, \"cm\", \"m\") == pytest.approx(2.5)\n"
        "    assert convert(2, \"km\", \"m\") == pytest.approx(2000)\n", ["test_cm_to_m"]),
]
