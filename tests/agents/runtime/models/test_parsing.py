import json

import pytest

from agents.runtime.models.base import ModelReplyError
from agents.runtime.models.parsing import complete_parsed, reply_text
from agents.runtime.models.scripted import ScriptedModel

ASK = [{"role": "user", "content": "Give me JSON with a number n."}]


def parse_n(text: str) -> int:
    return int(json.loads(text)["n"])


def test_parses_a_good_reply_at_once():
    model = ScriptedModel(['{"n": 4}'])
    assert complete_parsed(model, ASK, parse_n) == 4 and model.remaining == 0


def test_re_asks_once_with_the_parse_error():
    model = ScriptedModel(["four", '{"n": 4}'])
    assert complete_parsed(model, ASK, parse_n) == 4
    second = model.calls[1]["messages"]
    assert second[:2] == ASK + [{"role": "assistant", "content": "four"}]
    assert second[2]["role"] == "user" and "JSONDecodeError" in second[2]["content"]


def test_fails_cleanly_after_the_second_bad_reply():
    model = ScriptedModel(["four", "still four"])
    with pytest.raises(ModelReplyError, match="did not parse after one re-ask"):
        complete_parsed(model, ASK, parse_n)


def test_a_tool_call_is_parsed_as_json_and_corrected_with_tool_messages():
    bad_call = {"tool_calls": [{"id": "c9", "name": "f", "arguments": {"m": 1}}]}
    model = ScriptedModel([bad_call, {"tool_calls": [{"name": "f", "arguments": {"n": 2}}]}])
    assert complete_parsed(model, ASK, lambda text: json.loads(text)["arguments"]["n"]) == 2
    correction = model.calls[1]["messages"][-1]
    assert correction["role"] == "tool" and correction["tool_call_id"] == "c9"
    assert json.loads(reply_text(ScriptedModel([bad_call]).complete(ASK))) == {"tool": "f", "arguments": {"m": 1}}
