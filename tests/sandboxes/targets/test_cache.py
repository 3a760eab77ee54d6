"""The source-hash build cache."""

import stat

from sandboxes.targets.base import BuildOutcome
from sandboxes.targets.cache import BuildCache, default_cache_root


def test_store_then_lookup_marks_cached(tmp_path):
    cache = BuildCache(tmp_path)
    assert cache.lookup("abc") is None
    cache.store("abc", BuildOutcome(ok=True, seconds=1.5), {"lib.so": b"\x7fELF"})
    outcome = cache.lookup("abc")
    assert outcome.ok and outcome.cached and outcome.seconds == 1.5
    assert (tmp_path / "abc" / "lib.so").read_bytes() == b"\x7fELF"
    assert stat.S_IMODE((tmp_path / "abc").stat().st_mode) == 0o755


def test_failures_are_cached_with_their_error(tmp_path):
    cache = BuildCache(tmp_path)
    cache.store("bad", BuildOutcome(ok=False, error="kernel.cpp:3: error: expected ';'"), {})
    assert cache.lookup("bad").error.endswith("expected ';'")


def test_second_store_of_same_digest_keeps_first(tmp_path):
    cache = BuildCache(tmp_path)
    cache.store("d", BuildOutcome(ok=True), {"lib.so": b"one"})
    cache.store("d", BuildOutcome(ok=True), {"lib.so": b"two"})
    assert (tmp_path / "d" / "lib.so").read_bytes() == b"one"
    assert [p.name for p in tmp_path.iterdir()] == ["d"]


def test_clear_and_env_override(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENT_KERNEL_CACHE", str(tmp_path / "kc"))
    assert default_cache_root() == tmp_path / "kc"
    cache = BuildCache()
    cache.store("x", BuildOutcome(ok=True), {})
    cache.clear()
    assert list((tmp_path / "kc").iterdir()) == []
