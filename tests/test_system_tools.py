"""The skip for a missing system tool names the tool and its install command."""

import pytest

from tests import system_tools


def test_a_missing_tool_is_a_skip_naming_it_and_its_install_command(monkeypatch):
    what, install, _check = system_tools.SYSTEM_TOOLS["klayout"]
    monkeypatch.setitem(system_tools.SYSTEM_TOOLS, "klayout", (what, install, lambda: "klayout is not on PATH"))
    system_tools.missing_tool.cache_clear()
    try:
        with pytest.raises(pytest.skip.Exception) as skipped:
            system_tools.require_tool("klayout")
    finally:
        system_tools.missing_tool.cache_clear()
    assert str(skipped.value) == ("needs Debian's KLayout binary (runs Ruby DRC decks): klayout is not on PATH; "
                                  "install: apt-get install klayout")


def test_every_tool_marker_is_registered(pytestconfig):
    registered = {line.split(":")[0] for line in pytestconfig.getini("markers")}
    assert set(system_tools.SYSTEM_TOOLS) <= registered
