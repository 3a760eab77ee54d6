import random

from benchmarks.drc.checks_pair import Enclosure, Inside
from benchmarks.drc.checks_single import Space, Width
from benchmarks.drc.layouts import build_layouts, usable_cases


def test_layouts_cover_clean_single_and_combined_violations():
    checks = [Width("m1.1", "met1", 140), Space("m1.2", "met1", 140)]
    layouts = build_layouts(checks, random.Random(0))
    labels = [tuple(layout.labels.values()) for layout in layouts]
    assert labels.count((False, False)) == 3 and (True, True) in labels
    assert labels.count((True, False)) == labels.count((False, True)) == 5
    assert layouts[0].name == "clean-all" and layouts[0].gds[:4] == b"\x00\x06\x00\x02"


def test_conflicting_cases_are_dropped():
    checks = [Enclosure("e", "met1", "via", 30), Inside("i", "via", "met1", 0)]
    names = {case.name for case in usable_cases(checks)["i"]}
    assert "straddle" not in names and "edge" not in names and "lone" in names
    alone = {case.name for case in usable_cases([checks[1]])["i"]}
    assert {"straddle", "edge"} <= alone
