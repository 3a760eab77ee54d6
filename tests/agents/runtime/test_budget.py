import pytest

from agents.runtime.budget import Budget, BudgetExceeded, Totals


def spent(calls=2, tokens=300, cost=0.02) -> Totals:
    totals = Totals()
    for _ in range(calls):
        totals.add({"prompt_tokens": tokens // calls, "completion_tokens": 0, "cost_usd": cost / calls})
    return totals


def test_no_limits_never_stop():
    spent(calls=50, tokens=10**6, cost=100.0).check(Budget())


@pytest.mark.parametrize("budget, message", [(Budget(max_calls=2), "call budget"),
                                             (Budget(max_tokens=300), "token budget"),
                                             (Budget(max_cost_usd=0.02), "money budget")])
def test_each_limit_stops_once_reached(budget, message):
    with pytest.raises(BudgetExceeded, match=message):
        spent().check(budget)


def test_below_every_limit_passes():
    spent().check(Budget(max_calls=3, max_tokens=301, max_cost_usd=0.03))
