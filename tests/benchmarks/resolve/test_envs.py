import threading

import pytest

from benchmarks.resolve.envs import READY_FILE, EnvCache, EnvError, env_key
from benchmarks.resolve.generated import generated_spec
from benchmarks.resolve.specs import EnvSpec


def cheap_spec(**changes) -> EnvSpec:
    """The generated benchmark's spec without the pip step (a venv over the host's packages)."""
    return EnvSpec(**{**generated_spec(), "pip_packages": [], **changes})


def test_the_second_get_of_a_repository_and_version_reuses_the_environment(tmp_path):
    cache = EnvCache(tmp_path)
    first = cache.get("o/r", "1.0", cheap_spec())
    second = EnvCache(tmp_path).get("o/r", "1.0", cheap_spec())  # another process's cache: the same folder
    assert (first.reused, second.reused) == (False, True) and first.path == second.path
    assert second.build_seconds == first.build_seconds and (first.path / "bin" / "python").exists()
    assert first.readonly[0] == str(first.path)
    other = cache.get("o/r", "2.0", cheap_spec())
    assert not other.reused and other.key != first.key  # another version is another environment


def test_a_build_that_died_is_made_again_and_concurrent_gets_build_once(tmp_path):
    cache = EnvCache(tmp_path)
    spec = cheap_spec()
    (tmp_path / env_key("o/r", "1.0", spec)).mkdir()  # a folder without env.json: a build that died
    results = []
    threads = [threading.Thread(target=lambda: results.append(cache.get("o/r", "1.0", spec))) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.reused for r in results) == [False, True, True]
    assert (results[0].path / READY_FILE).is_file()


def test_a_spec_that_cannot_be_met_here_says_why(tmp_path):
    with pytest.raises(EnvError, match="pre_install needs system packages"):
        EnvCache(tmp_path).get("o/r", "1", cheap_spec(pre_install=["apt-get install -y libxml2"]))
    with pytest.raises(EnvError, match="Python 9.9 is not installed"):
        EnvCache(tmp_path).get("o/r", "1", cheap_spec(python="9.9"))
