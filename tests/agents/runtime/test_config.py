import pytest

from sandboxes.errors import UserError
from sandboxes.settings import Config

from agents.runtime.config import config_file, env_values, load_config, read_config_file


class Knobs(Config):
    size: int = 1
    """How many."""
    name: str = "plain"
    """What to call it."""
    tags: list[str] = []
    """Labels."""


def write_toml(tmp_path, text):
    (tmp_path / "agentkiln.toml").write_text(text)


def test_defaults_without_any_source():
    assert load_config(Knobs, "knobs") == Knobs()


def test_flags_beat_environment_beat_file_beat_defaults(tmp_path, monkeypatch):
    write_toml(tmp_path, '[knobs]\nsize = 2\nname = "file"\ntags = ["a"]\n')
    assert load_config(Knobs, "knobs") == Knobs(size=2, name="file", tags=["a"])
    monkeypatch.setenv("AGENT_KNOBS_SIZE", "3")
    monkeypatch.setenv("AGENT_KNOBS_TAGS", '["x", "y"]')
    assert load_config(Knobs, "knobs") == Knobs(size=3, name="file", tags=["x", "y"])
    assert load_config(Knobs, "knobs", {"size": 4, "name": None}) == Knobs(size=4, name="file", tags=["x", "y"])


def test_custom_env_prefix():
    assert env_values(Knobs, "AGENT_", {"AGENT_SIZE": "7", "AGENT_KNOBS_SIZE": "9"}) == {"size": "7"}


def test_malformed_file_is_one_clear_line(tmp_path):
    write_toml(tmp_path, "[knobs\nsize = \n")
    with pytest.raises(UserError, match=r"malformed config file agentkiln.toml: .*line 1") as error:
        load_config(Knobs, "knobs")
    assert "\n" not in str(error.value)


def test_unknown_and_invalid_settings_name_their_source(tmp_path, monkeypatch):
    write_toml(tmp_path, "[knobs]\nsise = 2\n")
    with pytest.raises(UserError, match=r"unknown setting 'sise' \(\[knobs\] in the config file\); known: size"):
        load_config(Knobs, "knobs")
    write_toml(tmp_path, "")
    monkeypatch.setenv("AGENT_KNOBS_SIZE", "many")
    with pytest.raises(UserError, match=r"invalid setting knobs.size \(AGENT_KNOBS_SIZE\): .*integer"):
        load_config(Knobs, "knobs")


def test_a_section_must_be_a_table(tmp_path):
    write_toml(tmp_path, 'knobs = 3\n')
    with pytest.raises(UserError, match=r"'knobs' must be a table"):
        load_config(Knobs, "knobs")


def test_agent_config_names_the_file(tmp_path, monkeypatch):
    other = tmp_path / "elsewhere.toml"
    other.write_text("[knobs]\nsize = 5\n")
    monkeypatch.setenv("AGENT_CONFIG", str(other))
    assert config_file() == other and read_config_file()["knobs"]["size"] == 5
    monkeypatch.setenv("AGENT_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(UserError, match="config file not found"):
        config_file()
