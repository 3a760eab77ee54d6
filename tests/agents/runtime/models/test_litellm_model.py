import pytest

from sandboxes.errors import UserError

from agents.runtime.models.base import ModelRequestError, ModelUnavailable
from agents.runtime.models.litellm_model import LiteLLMModel, ModelSettings, check_model_spec

HELLO = [{"role": "user", "content": "Say hello, please."}]


def model_at(server, name="openai/gpt-4o-mini", **settings):
    return LiteLLMModel(ModelSettings(name=name, api_base=server.url, retry_base_s=0.01, **settings))


def test_text_reply_with_usage_and_price_table_cost(fake_openai):
    fake_openai.replies = ["hello there"]
    response = model_at(fake_openai).complete(HELLO)
    assert response.content == "hello there" and response.usage.prompt_tokens > 0
    assert response.cost_known and response.cost_usd > 0 and response.latency_s > 0
    assert fake_openai.requests[0]["model"] == "gpt-4o-mini"
    assert fake_openai.requests[0]["messages"] == HELLO


def test_tool_calls_round_trip(fake_openai):
    fake_openai.replies = [{"tool_calls": [{"id": "c1", "name": "calculator", "arguments": {"expression": "2+2"}}]}]
    tool = {"type": "function", "function": {"name": "calculator", "parameters": {"type": "object"}}}
    response = model_at(fake_openai).complete(HELLO, tools=[tool])
    assert [(c.id, c.name, c.arguments) for c in response.tool_calls] == [("c1", "calculator", {"expression": "2+2"})]
    assert fake_openai.requests[0]["tools"][0]["function"]["name"] == "calculator"


def test_streaming_passes_pieces_and_keeps_usage(fake_openai):
    fake_openai.replies = ["one two three"]
    pieces = []
    response = model_at(fake_openai).complete(HELLO, on_token=pieces.append)
    assert "".join(pieces) == "one two three" == response.content and len(pieces) == 3
    assert response.usage.completion_tokens > 0 and response.cost_usd > 0


@pytest.mark.parametrize("status", [429, 500, 503])
def test_retries_transient_errors_then_succeeds(fake_openai, status):
    fake_openai.replies = [{"status": status, "error": "busy"}, "fine"]
    assert model_at(fake_openai).complete(HELLO).content == "fine"
    assert len(fake_openai.requests) == 2


def test_gives_up_after_the_retries(fake_openai):
    fake_openai.replies = [{"status": 429, "error": "slow down"}] * 3
    with pytest.raises(ModelUnavailable, match="still failing after 2 retries"):
        model_at(fake_openai, retries=2).complete(HELLO)
    assert len(fake_openai.requests) == 3


def test_a_bad_request_is_one_line_naming_the_status_and_is_not_retried(fake_openai):
    fake_openai.replies = [{"status": 400, "error": "maximum context length exceeded"}]
    with pytest.raises(ModelRequestError) as refused:
        model_at(fake_openai).complete(HELLO)
    message = str(refused.value)
    assert message.startswith("model 'openai/gpt-4o-mini' rejected the request (BadRequestError, HTTP 400)")
    assert "maximum context length exceeded" in message and "\n" not in message
    assert len(fake_openai.requests) == 1


def test_each_retry_is_a_line_on_the_console(fake_openai, capsys):
    fake_openai.replies = [{"status": 503, "error": "overloaded"}, "fine"]
    assert model_at(fake_openai).complete(HELLO).content == "fine"
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("model openai/gpt-4o-mini: ") and "overloaded" in line and "retry 1 of 4 in " in line


def test_rejected_credentials_are_a_user_error(fake_openai):
    fake_openai.replies = [{"status": 401, "error": "bad key"}]
    with pytest.raises(UserError, match="rejected the credentials"):
        model_at(fake_openai).complete(HELLO)
    assert len(fake_openai.requests) == 1, "a 401 is not retried"


def test_a_model_missing_from_the_price_table_has_unknown_cost(fake_openai):
    fake_openai.replies = ["hi"]
    response = model_at(fake_openai, name="openai/house-model-7b").complete(HELLO)
    assert response.cost_usd == 0 and not response.cost_known


def test_spec_checks_provider_and_credentials(monkeypatch):
    with pytest.raises(UserError, match="unknown model provider in 'nosuch/model'"):
        check_model_spec("nosuch/model", None)
    with pytest.raises(UserError, match="no credentials for model 'anthropic/claude-haiku-4-5': set ANTHROPIC_API_KEY"):
        check_model_spec("anthropic/claude-haiku-4-5", None)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    assert check_model_spec("anthropic/claude-haiku-4-5", None) == "anthropic"
    assert check_model_spec("openai/anything", "http://127.0.0.1:1") == "openai"
