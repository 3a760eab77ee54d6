"""KernelBench-format tasks: the built-in suites, selection and validation."""

import types

import pytest
import torch

from benchmarks.kernels.tasks import builtin_task_names, load_task, load_tasks
from sandboxes.errors import UserError


def test_builtin_suites_are_large_enough():
    assert len(builtin_task_names("L1")) >= 30
    assert len(builtin_task_names("L2")) >= 15


def test_selection_by_name_and_pattern():
    assert [t.name for t in load_tasks("builtin:L1:relu,softmax")] == ["relu", "softmax"]
    assert {t.name for t in load_tasks("builtin:L1:*_rows")} >= {"sum_rows", "max_rows", "mean_rows"}
    assert {t.level for t in load_tasks("builtin:L1:relu+builtin:L2:silu_mul")} == {"L1", "L2"}
    assert len(load_tasks("builtin")) == len(builtin_task_names("L1")) + len(builtin_task_names("L2"))


def test_unknown_names_and_levels_are_user_errors():
    with pytest.raises(UserError, match="no task named nosuch"):
        load_tasks("builtin:L1:nosuch")
    with pytest.raises(UserError, match="unknown built-in level"):
        load_tasks("builtin:L9")
    with pytest.raises(UserError, match="does not exist"):
        load_tasks("/no/such/folder")


def test_folder_of_tasks_like_a_kernelbench_checkout(tmp_path):
    level = tmp_path / "level1"
    level.mkdir()
    for name in ("1_Square_matmul", "2_ReLU"):
        (level / f"{name}.py").write_text(load_tasks("builtin:L1:relu")[0].source)
    tasks = load_tasks(str(level))
    assert [t.name for t in tasks] == ["1_Square_matmul", "2_ReLU"] and tasks[0].level == "level1"
    assert [t.name for t in load_tasks(f"{level}::2_*")] == ["2_ReLU"]
    assert [t.name for t in load_tasks(f"{level}::2_ReLU.py")] == ["2_ReLU"]  # a file name as written: it was refused


def test_malformed_task_names_what_is_missing(tmp_path):
    (tmp_path / "bad.py").write_text("import torch\nclass Model: pass\n")
    with pytest.raises(UserError, match="missing get_inputs, get_init_inputs"):
        load_task(tmp_path / "bad.py")
    (tmp_path / "broken.py").write_text("def (:\n")
    with pytest.raises(UserError, match="not valid Python"):
        load_task(tmp_path / "broken.py")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="no task files"):
        load_tasks(str(tmp_path / "empty"))
    (tmp_path / "deep.py").write_text("x = " + "-" * 200_000 + "1\n")
    with pytest.raises(UserError, match="nests too deeply"):
        load_task(tmp_path / "deep.py")


def test_a_task_importing_a_package_this_python_lacks_is_skipped_with_the_install_line(tmp_path):
    relu = load_tasks("builtin:L1:relu")[0].source
    (tmp_path / "1_ReLU.py").write_text(relu)
    (tmp_path / "2_Mamba.py").write_text("from agentkiln_absent_pkg.ops import scan\n" + relu)
    (tmp_path / "3_Optional.py").write_text("try:\n    import agentkiln_absent_pkg\nexcept ImportError:\n"
                                           "    agentkiln_absent_pkg = None\n" + relu)
    skipped = []
    assert [t.name for t in load_tasks(str(tmp_path), skipped=skipped)] == ["1_ReLU", "3_Optional"]
    assert [s.path.name for s in skipped] == ["2_Mamba.py"]
    assert "imports agentkiln_absent_pkg" in skipped[0].reason and "pip install agentkiln_absent_pkg" in skipped[0].reason
    with pytest.raises(UserError, match="pip install agentkiln_absent_pkg"):
        load_task(tmp_path / "2_Mamba.py")


def test_every_builtin_task_runs_and_gpu_shapes_name_real_constants():
    torch.set_num_threads(1)
    for task in load_tasks("builtin"):
        module = types.ModuleType(task.name)
        exec(compile(task.source, str(task.path), "exec"), module.__dict__)
        assert set(module.GPU_SHAPES) <= set(vars(module)), task.name
        with torch.no_grad():
            output = module.Model(*module.get_init_inputs())(*module.get_inputs())
        assert isinstance(output, torch.Tensor) and torch.isfinite(output.float()).all(), task.name
        assert task.description
