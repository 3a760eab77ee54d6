from agents.runtime.models.cache import CachedModel
from agents.runtime.models.scripted import ScriptedModel

ASK = [{"role": "user", "content": "hello"}]


def test_a_repeated_request_is_served_from_disk_without_a_call(tmp_path):
    inner = ScriptedModel(["first answer", "second answer"])
    model = CachedModel(inner, tmp_path / "cache")
    fresh = model.complete(ASK)
    again = CachedModel(ScriptedModel([]), tmp_path / "cache").complete(ASK)
    assert fresh.content == again.content == "first answer" and not fresh.cached
    assert again.cached and again.cost_usd == 0 and again.usage.total_tokens == 0
    assert model.complete(ASK, temperature=0.5).content == "second answer", "options are part of the key"
    assert len(inner.calls) == 2


def test_the_default_directory_follows_agent_cache_dir(tmp_path):
    model = CachedModel(ScriptedModel(["x"]))
    model.complete(ASK)
    assert list((tmp_path / "cache").rglob("*.json")), "conftest points AGENT_CACHE_DIR into tmp_path"
