import pytest

from benchmarks.drc.checks_base import RuleContext
from benchmarks.drc.checks_pair import Enclosure, Inside, Overlap, Separation, cut_in_metal
from tests.benchmarks.drc.regions import regions

ORACLES = {
    "enclosure": lambda r, c: r[c.first].enclosing_check(r[c.second], c.value).count() > 0,
    "inside": lambda r, c: r[c.first].not_inside(r[c.second]).count() > 0,
    "separation": lambda r, c: r[c.first].separation_check(r[c.second], c.value).count() > 0,
    "overlap": lambda r, c: r[c.first].overlap_check(r[c.second], c.value).count() > 0,
}


@pytest.mark.parametrize("check", [Enclosure("e", "met1", "via", 30), Inside("i", "mcon", "li1", 0),
                                   Separation("s", "poly", "diff", 75), Overlap("o", "met2", "met3", 140)])
def test_every_case_violates_exactly_when_labelled(check):
    context = RuleContext()
    check.constrain(context)
    for case in check.cases(context):
        assert ORACLES[check.kind](regions(case.block, check.layers()), check) == case.violates, case.name


def test_inside_cases_that_would_trip_an_enclosure_rule_say_so():
    context = RuleContext(enclosure={("met1", "via"): 30})
    flagged = {case.name for case in Inside("i", "via", "met1", 0).cases(context) if case.conflicts}
    assert flagged == {"edge", "straddle"}


def test_cut_in_metal_keeps_the_metal_legal():
    context = RuleContext(width={"met3": 300}, area={"met3": 240_000})
    block = cut_in_metal(context, "met3", "via2", 10, 10, "x")
    metal = regions(block, ["met3", "via2"])["met3"]
    assert metal.width_check(300).count() == 0 and metal.area() >= 240_000
