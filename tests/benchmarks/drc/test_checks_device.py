import pytest

from benchmarks.drc.checks_base import RuleContext
from benchmarks.drc.checks_device import BOUNDARY, Coverage, Density, Extension, GateLength, stripes, transistor
from tests.benchmarks.drc.regions import regions


def gate_short(r, check):
    return (r["poly"] & r["diff"]).width_check(check.value).count() > 0


def endcap_short(r, check):
    return (r["poly"] - r["diff"]).interacting(r["poly"] & r["diff"]).width_check(check.value).count() > 0


@pytest.mark.parametrize("check,oracle", [(GateLength("g", 150), gate_short), (Extension("e", 130), endcap_short)])
def test_transistor_cases(check, oracle):
    context = RuleContext(gate=150, extension=130)
    for case in check.cases(context):
        assert oracle(regions(case.block, ["poly", "diff"]), check) == case.violates, case.name


def test_coverage_cases():
    for case in Coverage("c").cases(RuleContext()):
        r = regions(case.block, ["diff", "nwell", "psdm"])
        uncovered = (r["diff"] & r["nwell"]) - r["psdm"]
        assert (uncovered.count() > 0) == case.violates, case.name


@pytest.mark.parametrize("bound", ["min", "max"])
def test_density_cases(bound):
    check = Density("d", "met1", bound, 0.2, 0.7)
    for case in check.cases(RuleContext()):
        r = regions(case.block, ["met1", "boundary"], boundary=(0, 0, BOUNDARY, BOUNDARY))
        density = (r["met1"] & r["boundary"]).area() / r["boundary"].area()
        assert (density < 0.2 or density > 0.7) == case.violates, case.name


def test_geometry_helpers():
    assert stripes("met1", 0.25, "x").bbox().height() == BOUNDARY
    block = transistor(150, 130, 100, "t", fingers=2)
    assert len([s for s in block.shapes if s[0] == "poly"]) == 2
