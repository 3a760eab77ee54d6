"""A DRC runner on the local sandbox, shared by the tests of this folder."""

import pytest

from sandboxes.select import get_sandbox
from tools.drc.runner import DrcRunner, DrcRunnerConfig


@pytest.fixture(scope="session")
def drc_runner() -> DrcRunner:
    return DrcRunner(get_sandbox("local"), DrcRunnerConfig(job_timeout_s=3.0))
