import math

import pytest

from numerics.epsvec.privacy import analytic_sigma
from sandboxes.errors import UserError
from tests.numerics.fixture.conftest import single_thread  # noqa: F401  (autouse: one torch thread)
from tools.numerics.epsvec import EPSVEC_TOOL

SMALL = {"examples": 20, "samples": 9, "length": 12}


def test_one_release_for_epsvec_and_one_per_sample_for_the_baseline():
    ours = EPSVEC_TOOL.invoke({**SMALL, "epsilon": 2.0})
    assert ours["releases"] == 1 and ours["sigma"] == pytest.approx(analytic_sigma(2.0, 1e-5, 4.0))
    assert len(ours["samples"]) == 5 and all(len(text) == 11 for text in ours["samples"])
    assert 0 <= ours["fidelity"]["private_share"] <= 1 and 0 <= ours["fidelity"]["bigram_js"] <= 1
    baseline = EPSVEC_TOOL.invoke({**SMALL, "epsilon": 2.0, "per_sample": True})
    assert baseline["releases"] == 9 and baseline["sigma"] == pytest.approx(3 * ours["sigma"])
    exact = EPSVEC_TOOL.invoke({**SMALL, "epsilon": None})
    assert exact["sigma"] == 0.0 and not math.isinf(exact["fidelity"]["bigram_js"])
    assert EPSVEC_TOOL.approval == "auto"


@pytest.mark.parametrize("bad", [{"epsilon": 0}, {"samples": 5000}, {"layer": 3}, {"prompt": "x"}])
def test_the_tool_refuses_unbounded_or_unknown_arguments(bad):
    with pytest.raises(UserError, match="bad arguments"):
        EPSVEC_TOOL.invoke(bad)
