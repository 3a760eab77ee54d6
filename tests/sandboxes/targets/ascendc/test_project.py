"""The generated Ascend C custom-operator project tree."""

import json

import pytest

from sandboxes.errors import UserError
from sandboxes.targets.ascendc.example import solution_source
from sandboxes.targets.ascendc.project import from_solution


def test_project_tree_from_a_solution(tmp_path):
    project = from_solution(solution_source())
    assert project.op_type == "AddCustom" and project.snake == "add_custom"
    written = {p.relative_to(tmp_path).as_posix() for p in project.write(tmp_path)}
    assert written == {"add_custom.json", "op_host/add_custom_tiling.h", "op_host/add_custom.cpp",
                       "op_kernel/add_custom.cpp", "CppExtension/csrc/op.cpp", "CppExtension/setup.py",
                       "test_op.py", "run.sh"}
    assert json.loads((tmp_path / "add_custom.json").read_text())[0]["op"] == "AddCustom"
    assert "BEGIN_TILING_DATA_DEF" in (tmp_path / "op_host/add_custom_tiling.h").read_text()
    assert "GET_TILING_DATA" in (tmp_path / "op_kernel/add_custom.cpp").read_text()
    script = (tmp_path / "run.sh").read_text()
    assert "msopgen gen -i add_custom.json" in script and "build.sh" in script and "custom_opp_" in script
    assert (tmp_path / "run.sh").stat().st_mode & 0o111


def test_incomplete_solutions_are_user_errors():
    with pytest.raises(UserError, match="kernel_src"):
        from_solution("project_json_src = '[]'\n")
    with pytest.raises(UserError, match="not valid Python"):
        from_solution("def (")
