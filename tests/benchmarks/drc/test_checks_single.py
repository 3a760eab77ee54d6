import pytest

from benchmarks.drc.checks_base import RuleContext
from benchmarks.drc.checks_single import Area, Notch, Space, Width
from tests.benchmarks.drc.regions import regions

ORACLES = {
    "width": lambda r, c: r.width_check(c.value).count() > 0,
    "space": lambda r, c: r.space_check(c.value).count() > 0,
    "notch": lambda r, c: r.notch_check(c.value).count() > 0,
    "area": lambda r, c: r.with_area(0, c.value, False).count() > 0,
}


@pytest.mark.parametrize("check", [Width("w", "met1", 140), Space("s", "met2", 140), Notch("n", "li1", 170),
                                   Area("a", "met3", 300, 800), Width("w", "met5", 1920)])
def test_every_case_violates_exactly_when_labelled(check):
    context = RuleContext()
    check.constrain(context)
    cases = check.cases(context)
    assert {c.violates for c in cases} == {True, False}
    for case in cases:
        region = regions(case.block, [check.layer])[check.layer]
        assert ORACLES[check.kind](region, check) == case.violates, case.name


def test_deck_lines_and_descriptions():
    assert Width("m1.1", "met1", 140).deck() == \
        'met1.width(0.14.um).output("m1.1", "met1 width must be at least 0.14 um")'
    assert Area("m1.6", "met1", 200, 415).deck().startswith("met1.with_area(nil, 0.083)")
    assert "notch" in Notch("m1.3", "met1", 140).describe()
