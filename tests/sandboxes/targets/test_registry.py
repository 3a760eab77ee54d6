"""Targets by name."""

import pytest

from sandboxes.errors import UserError
from sandboxes.targets.cpu import CpuTarget
from sandboxes.targets.registry import get_target


def test_known_and_unknown_targets():
    assert isinstance(get_target("cpu"), CpuTarget)
    assert get_target("gpu").name == "gpu"
    with pytest.raises(UserError, match="unknown target 'tpu'"):
        get_target("tpu")
