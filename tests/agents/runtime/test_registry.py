import pytest

from sandboxes.errors import UserError

from agents.runtime.registry import get_agent, register_agent, registered_agents


def test_register_and_look_up():
    def execute(run, model):
        return None

    assert register_agent("unit-test-agent", execute) is execute
    assert get_agent("unit-test-agent") is execute and "unit-test-agent" in registered_agents()


def test_unknown_agent_is_a_user_error():
    with pytest.raises(UserError, match="no agent named 'missing-agent'"):
        get_agent("missing-agent")


def test_lazy_registration_imports_on_first_call(monkeypatch):
    import sys

    monkeypatch.delitem(sys.modules, "json.tool", raising=False)
    execute = register_agent("lazy-demo", "json.tool:main")
    assert "json.tool" not in sys.modules and get_agent("lazy-demo") is execute
    monkeypatch.setattr(sys, "argv", ["json.tool", "--help"])
    with pytest.raises(TypeError):  # json.tool.main takes no (run, model): proves it was imported and called
        execute(None, None)
    assert "json.tool" in sys.modules
