"""Which tools the MCP server serves: chat's unattended set by default, --allow and --deny on names and groups."""

import pytest

from sandboxes.errors import UserError
from tools.registry import collect_tools

from agents.mcp.config import McpConfig
from agents.mcp.toolset import in_default_set, select_tools, served_tools

PACKAGES = ["kernels", "drc", "ahd", "sandbox"]


@pytest.fixture(scope="module")
def toolbox():
    return collect_tools(PACKAGES)


def test_the_default_set_is_the_read_only_and_the_sandboxed_tools(toolbox):
    served = select_tools(toolbox, [], [])
    assert {"kernel_check", "kernel_show_task", "drc_run_deck", "ahd_evaluate", "python_exec"} <= set(served)
    assert "drc_render_layout" not in served, "it writes host files: only --allow serves it"
    assert all(in_default_set(tool) for tool in served.values())
    assert all(set(tool.capabilities) <= {"compute", "read_files", "sandbox"} for tool in served.values())


def test_allow_and_deny_take_names_and_groups_and_deny_wins(toolbox):
    served = select_tools(toolbox, ["drc_render_layout"], ["sandbox", "kernel_benchmark"])
    assert "drc_render_layout" in served and "kernel_check" in served
    assert not {"python_exec", "shell_exec", "kernel_benchmark"} & set(served)
    assert "drc_render_layout" not in select_tools(toolbox, ["drc_render_layout"], ["drc"])


def test_an_unknown_name_is_one_clear_error(toolbox):
    with pytest.raises(UserError, match="no tool or tool group named kernal_check .*known: .*kernel_check"):
        select_tools(toolbox, ["kernal_check"], [])


def test_a_workdir_must_exist(tmp_path):
    with pytest.raises(UserError, match="not a directory"):
        served_tools(McpConfig(tools=["kernels"], workdir=str(tmp_path / "missing")))
