"""The adversarial suite runs on both backends; every case must be contained (see sandboxes/attacks.py)."""

import pytest

from sandboxes.attacks import ATTACKS
from sandboxes.selftest import run_case


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_attack_is_contained(any_sandbox, attack):
    row = run_case(any_sandbox, attack)
    assert row["contained"], row["detail"]
