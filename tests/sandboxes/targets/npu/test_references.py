"""The committed npu reference solutions are the rendered templates, and they pass the static checks."""

import pytest

from benchmarks.kernels.static_checks import check_solution
from benchmarks.kernels.tasks import load_tasks
from sandboxes.targets.npu.references import REFERENCE_DIR, task_operator, write_references
from sandboxes.targets.npu.target import NpuTarget


@pytest.mark.slow
def test_committed_references_are_up_to_date(tmp_path):
    written = write_references("builtin:L1+builtin:L2", tmp_path)
    assert len(written) >= 25
    for path in written:
        assert (REFERENCE_DIR / path.name).read_text() == path.read_text(), f"regenerate {path.name}"
    assert sorted(p.name for p in REFERENCE_DIR.glob("*.py")) == sorted(p.name for p in written)


def test_references_pass_the_harness_static_checks():
    target = NpuTarget()
    for path in sorted(REFERENCE_DIR.glob("*.py")):
        assert check_solution(path.read_text(), target) == [], path.name


def test_tasks_without_a_template_say_why():
    reason = task_operator(load_tasks("builtin:L1:cumsum")[0].source)
    assert isinstance(reason, str) and "cumsum" in reason
