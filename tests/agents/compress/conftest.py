import pytest


@pytest.fixture(autouse=True)
def _isolated(isolated_agent_env):
    """Every compression test works in its own folder without ambient settings or keys."""
    return isolated_agent_env
