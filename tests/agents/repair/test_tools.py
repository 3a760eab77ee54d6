from agents.repair.tools import SUBMITTED, RunTestsEnv, repair_tools
from agents.repair.worktree import Worktree
from sandboxes.base import Limits


def tools_over(tmp_path, text="a = 1\nb = 1\nc = 2\n"):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text(text)
    tree = Worktree.create(tmp_path / "wt", tmp_path / "src")
    env = RunTestsEnv("true", "/usr/bin", Limits(), lambda: None)
    return tree, {tool.name: tool for tool in repair_tools(tree, env)}


def test_edit_replaces_exactly_one_occurrence_or_nothing(tmp_path):
    tree, tools = tools_over(tmp_path)
    assert "occurs 2 times" in tools["edit_file"](path="m.py", old="= 1", new="= 9")
    assert "occurs 0 times" in tools["edit_file"](path="m.py", old="zzz", new="")
    assert tree.diff() == ""
    assert tools["edit_file"](path="m.py", old="c = 2", new="c = 3") == "edited m.py"
    assert "+c = 3" in tree.diff()


def test_read_list_write_and_submit(tmp_path):
    tree, tools = tools_over(tmp_path)
    assert tools["read_file"](path="m.py", start=2, end=2) == "    2  b = 1"
    tools["write_file"](path="sub/n.py", content="z = 0\n")
    assert tools["list_files"]() == ["m.py", "sub/"] and tools["list_files"](path="sub") == ["sub/n.py"]
    assert tools["submit"](summary="done").startswith(SUBMITTED)
    assert {name for name, tool in tools.items() if tool.approval == "ask"} == {"edit_file", "write_file",
                                                                                "run_tests"}
    assert all(tools[name].sandboxed for name in ("edit_file", "write_file", "run_tests"))
