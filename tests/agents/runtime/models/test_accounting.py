import pytest

from agents.runtime.budget import Budget, BudgetExceeded
from agents.runtime.models.accounting import AccountedModel
from agents.runtime.models.scripted import ScriptedModel
from agents.runtime.run import Run

ASK = [{"role": "user", "content": "hello"}]


class PricedModel(ScriptedModel):
    def complete(self, messages, *, tools=None, **options):
        response = super().complete(messages, tools=tools, **options)
        response.cost_usd = 0.01
        return response


def test_each_call_is_an_event_with_tokens_cost_and_latency():
    run = Run.create("t", {})
    model = AccountedModel(PricedModel(["a", {"tool_calls": [{"name": "f", "arguments": {}}]}]), run)
    model.complete(ASK)
    model.complete(ASK)
    calls = run.events("model.call")
    assert [c["tool_calls"] for c in calls] == [[], ["f"]]
    assert all(c["prompt_tokens"] > 0 and c["cost_usd"] == 0.01 and c["latency_s"] >= 0 for c in calls)
    assert run.totals.calls == 2 and run.totals.cost_usd == pytest.approx(0.02)


def test_budget_stops_before_the_call_that_would_exceed_it_and_holds_across_reopen():
    run = Run.create("t", {})
    model = AccountedModel(PricedModel(["a", "b", "c"]), run, Budget(max_cost_usd=0.02))
    model.complete(ASK)
    model.complete(ASK)
    with pytest.raises(BudgetExceeded, match="money budget spent"):
        model.complete(ASK)
    assert run.events("budget.exceeded")[0]["calls"] == 2
    reopened = AccountedModel(PricedModel(["d"]), Run.open(run.id), Budget(max_calls=2))
    with pytest.raises(BudgetExceeded, match="call budget"):
        reopened.complete(ASK)


def test_a_failing_call_is_recorded_and_raised():
    run = Run.create("t", {})
    with pytest.raises(RuntimeError, match="ran out"):
        AccountedModel(ScriptedModel([]), run).complete(ASK)
    assert "ran out of replies" in run.events("model.error")[0]["error"]
