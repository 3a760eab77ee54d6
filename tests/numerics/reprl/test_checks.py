import pytest
from pydantic import ValidationError

from numerics.reprl.checks import CheckConfig, run_check


def test_ours_replicates_is_optimal_and_needs_fewer_samples_than_naive():
    """S = 3, 6 on seed 0; the bench's wide sweep (4..32) is where the exponents are measured."""
    summary, table = run_check(CheckConfig(states=[3, 6], pairs=30, mdps=2))
    assert table[0]["passed"] and table[1]["passed"]
    ours, naive = summary["samples_needed"]["ours"], summary["samples_needed"]["naive"]
    assert None not in ours and None not in naive
    assert all(o * 100 < n for o, n in zip(ours, naive))
    theory = summary["analysis_exponent"]
    assert theory["naive"] > theory["fixed"] > 2.9 > theory["ours"] > 1.9


def test_config_refuses_more_ties_than_actions():
    with pytest.raises(ValidationError, match="tied"):
        CheckConfig(actions=2, tied=3)
