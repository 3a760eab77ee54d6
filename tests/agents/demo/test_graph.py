import pytest

from sandboxes.errors import UserError

from agents.demo.graph import OFFLINE_POLICY, execute, offline_expression, parse_plan
from agents.runtime.models.accounting import AccountedModel
from agents.runtime.models.scripted import ScriptedModel
from agents.runtime.run import Run


def test_parse_plan_accepts_a_tool_call_or_a_bare_expression():
    assert parse_plan('{"tool": "calculator", "arguments": {"expression": "2 * 3"}}') == "2 * 3"
    assert parse_plan("`4 + 4`") == "4 + 4"
    with pytest.raises(ValueError, match="expected the calculator tool"):
        parse_plan('{"tool": "search", "arguments": {}}')
    with pytest.raises(ValueError, match="not an arithmetic expression"):
        parse_plan("the answer is eight")


def test_offline_policy_extracts_the_expression():
    assert offline_expression("What is (3 + 4) * 2, roughly?") == "(3 + 4) * 2"
    with pytest.raises(UserError, match="found no arithmetic expression"):
        offline_expression("What is the meaning of life?")


def test_one_model_call_and_one_tool_call():
    run = Run.create("demo", {"question": "What is 6 * 7?"})
    model = AccountedModel(ScriptedModel([{"tool_calls": [{"name": "calculator",
                                                           "arguments": {"expression": "6 * 7"}}]}]), run)
    with run.active():
        report = execute(run, model)
    assert report.summary["answer"] == 42 and report.summary["policy"] == "llm: scripted"
    assert len(run.events("model.call")) == 1 and run.events("tool.call")[0]["result"] == 42


def test_offline_run_and_a_tool_error_is_reported_not_raised():
    run = Run.create("demo", {"question": "What is 1 / 0?"})
    with run.active():
        report = execute(run, None)
    assert report.summary["policy"] == OFFLINE_POLICY and report.summary["status"] == "tool error"
    assert report.rows[0]["error"] == "division by zero"
