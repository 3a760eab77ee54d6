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
