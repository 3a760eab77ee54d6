import json

import pytest

from sandboxes.errors import UserError

from agents.runtime.models.litellm_model import LiteLLMModel
from agents.runtime.models.replay import ReplayModel
from agents.runtime.models.resolve import choose_spec, resolve_model
from agents.runtime.models.scripted import ScriptedModel


def test_order_flag_env_file_credentials(tmp_path, monkeypatch):
    assert choose_spec(None) == (None, "none")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    assert choose_spec(None) == ("anthropic/claude-haiku-4-5", "credentials")
    (tmp_path / "agentkiln.toml").write_text('[run]\nmodel = "ollama/llama3"\n')
    assert choose_spec(None) == ("ollama/llama3", "config file")
    monkeypatch.setenv("AGENT_MODEL", "openai/gpt-4o")
    assert choose_spec(None) == ("openai/gpt-4o", "AGENT_MODEL")
    assert choose_spec("gemini/gemini-2.5-flash") == ("gemini/gemini-2.5-flash", "flag")


def test_nothing_configured_means_the_offline_policy_or_a_clear_error():
    assert resolve_model(None) is None
    assert resolve_model("offline") is None
    with pytest.raises(UserError, match="no model is configured: pass --model"):
        resolve_model(None, offline_ok=False)


def test_special_specs(tmp_path):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps(["hi", {"tool_calls": [{"name": "f", "arguments": {}}]}]))
    scripted = resolve_model(f"scripted:{replies}")
    assert isinstance(scripted, ScriptedModel) and scripted.complete([]).content == "hi"
    recording = tmp_path / "rec.jsonl"
    recording.write_text(json.dumps({"key": "k", "request": {}, "response": {"content": "x"}}) + "\n")
    assert isinstance(resolve_model(f"replay:{recording}"), ReplayModel)
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(UserError, match="not JSON"):
        resolve_model(f"scripted:{tmp_path / 'bad.json'}")


def test_litellm_specs_take_settings_from_file_and_environment(tmp_path, monkeypatch):
    (tmp_path / "agentkiln.toml").write_text('[run]\napi_base = "http://127.0.0.1:9/v1"\n[model]\nretries = 1\n')
    monkeypatch.setenv("AGENT_MODEL_TIMEOUT_S", "7")
    model = resolve_model("openai/gpt-4o-mini")
    assert isinstance(model, LiteLLMModel) and model.name == "openai/gpt-4o-mini"
    assert (model.settings.api_base, model.settings.retries, model.settings.timeout_s) == ("http://127.0.0.1:9/v1", 1, 7)
