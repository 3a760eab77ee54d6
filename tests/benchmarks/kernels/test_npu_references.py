"""The npu reference solutions are the rendered templates, cached by their inputs, and pass the static checks."""

import pytest

from benchmarks.kernels.static_checks import check_solution
from benchmarks.kernels.tasks import load_tasks
from benchmarks.kernels.npu_references import reference_dir, task_operator, write_references
from sandboxes.targets.npu.target import NpuTarget


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    cache = tmp_path_factory.mktemp("kernel-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AGENT_KERNEL_CACHE", str(cache))
        yield reference_dir()


def test_reference_dir_renders_once_and_is_reused(rendered, monkeypatch):
    files = sorted(p.name for p in rendered.glob("*.py"))
    assert len(files) >= 25 and "L1__relu.py" in files and "L1__cumsum.py" not in files
    monkeypatch.setenv("AGENT_KERNEL_CACHE", str(rendered.parents[1]))
    stamp = (rendered / "L1__relu.py").stat().st_mtime_ns
    assert reference_dir() == rendered and (rendered / "L1__relu.py").stat().st_mtime_ns == stamp


def test_export_matches_the_cached_set(rendered, tmp_path):
    written = write_references(tmp_path, "builtin:L1:relu,softmax")
    assert [p.read_text() for p in written] == [(rendered / p.name).read_text() for p in written]


def test_references_pass_the_harness_static_checks(rendered):
    target = NpuTarget()
    for path in sorted(rendered.glob("*.py")):
        assert check_solution(path.read_text(), target) == [], path.name


def test_tasks_without_a_template_say_why():
    reason = task_operator(load_tasks("builtin:L1:cumsum")[0].source)
    assert isinstance(reason, str) and "cumsum" in reason
