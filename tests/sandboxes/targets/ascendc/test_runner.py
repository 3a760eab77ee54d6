"""Clear errors when there is no CANN image or no Ascend device."""

import pytest

from sandboxes.errors import UserError
from sandboxes.targets.ascendc.example import solution_source
from sandboxes.targets.ascendc.project import from_solution
from sandboxes.targets.ascendc.runner import AscendcConfig, run_project
from sandboxes.targets.ascendc.target import AscendcTarget


def test_no_image_is_a_user_error(monkeypatch):
    monkeypatch.delenv("AGENT_ASCENDC_IMAGE", raising=False)
    with pytest.raises(UserError, match="no CANN image"):
        run_project(from_solution(solution_source()), AscendcConfig())


def test_no_device_is_a_user_error(tmp_path):
    config = AscendcConfig(image="cann:8.0", device_glob=str(tmp_path / "davinci[0-9]*"))
    with pytest.raises(UserError, match="no Ascend device"):
        run_project(from_solution(solution_source()), config)


def test_target_reports_why_it_cannot_run(tmp_path, monkeypatch):
    monkeypatch.setenv("AGENT_ASCENDC_IMAGE", "cann:8.0")
    target = AscendcTarget(AscendcConfig(device_glob=str(tmp_path / "none*")))
    availability = target.availability()
    assert not availability.can_compile and "no Ascend device" in availability.reason
    with pytest.raises(UserError, match="cannot compile here"):
        availability.require_compile()
