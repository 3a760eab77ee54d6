"""The registry finds tools in every tools module: objects, collections and argument-free factories."""

from __future__ import annotations

import types

from pydantic import BaseModel

from tools import registry
from tools.base import Tool
from tools.registry import Toolbox, collect_tools, tool_module_names, tools_of_module


class NoArgs(BaseModel):
    pass


def tool(name: str, group: str = "general") -> Tool:
    return Tool(name, f"{name} tool", NoArgs, lambda _a: name, group=group)


def test_a_module_contributes_objects_lists_and_argument_free_factories():
    module = types.ModuleType("tools.fake")
    module.SINGLE = tool("single")
    module.SEVERAL = [tool("a"), tool("b")]

    def make_extra_tools(option: int = 1) -> list[Tool]:
        return [tool("extra")]

    def make_bound_tools(workspace) -> list[Tool]:  # needs an argument: its user binds it
        return [tool("bound")]

    for factory in (make_extra_tools, make_bound_tools):
        factory.__module__ = "tools.fake"
        setattr(module, factory.__name__, factory)
    assert sorted(t.name for t in tools_of_module(module)) == ["a", "b", "extra", "single"]


def test_collects_the_real_tool_packages_grouped():
    toolbox = collect_tools(["sandbox", "ahd"])
    groups = toolbox.groups()
    assert list(groups) == ["sandbox", "ahd"]
    assert {t.name for t in groups["sandbox"]} == {"python_exec", "shell_exec", "sandbox_write_file"}
    assert all(t.name in toolbox.tools for t in groups["ahd"]) and toolbox.unavailable == {}
    assert {s["function"]["name"] for s in toolbox.schemas()} == set(toolbox.tools)


def test_every_tools_package_is_discovered_without_registration():
    names = tool_module_names()
    assert {"tools.sandbox.exec_tools", "tools.kernels.kernel_tools", "tools.ahd.heuristic_tools"} <= set(names)
    assert "tools.base" not in names and "tools.registry" not in names
    assert tool_module_names(["sandbox"]) == ["tools.sandbox", "tools.sandbox.exec_tools"]


def test_a_broken_module_is_reported_and_the_others_still_load(monkeypatch):
    monkeypatch.setattr(registry, "tool_module_names", lambda packages=None: ["tools.sandbox.exec_tools",
                                                                              "tools.no_such_module"])
    toolbox = collect_tools()
    assert "python_exec" in toolbox.tools
    assert "ModuleNotFoundError" in toolbox.unavailable["tools.no_such_module"]


def test_first_tool_of_a_name_wins_and_unknown_groups_sort_last():
    toolbox = Toolbox()
    toolbox.extend([tool("x", "zzz"), tool("x", "sandbox"), tool("y", "sandbox")])
    assert toolbox.tools["x"].group == "zzz"
    assert list(toolbox.groups()) == ["sandbox", "zzz"]


def test_an_unknown_tool_package_is_a_user_error_naming_the_known_ones():
    import pytest

    from sandboxes.errors import UserError
    from tools.registry import tool_module_names

    with pytest.raises(UserError, match=r"no tool package kernals \(choose from .*kernels"):
        tool_module_names(["kernels", "kernals"])
