"""A real local sandbox for the AHD evaluator tests."""

import pytest

from sandboxes.select import get_sandbox


@pytest.fixture(scope="session")
def sandbox():
    return get_sandbox("local")
