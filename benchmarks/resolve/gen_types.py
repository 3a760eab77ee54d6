"""One planted bug of a generated repository: where it is, its fix, its issue and the tests that catch it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bug:
    instance_id: str
    commit: int
    """Index of the commit (in the repository's history) the instance is based on."""
    path: str
    buggy: str
    """The text at fault, replaced once by ``fixed`` in the gold patch."""
    fixed: str
    issue: str
    """The problem statement."""
    test_path: str
    """The existing test module the test patch extends."""
    test_code: str
    """What the test patch appends to it."""
    fail_to_pass: list[str]
    """Names of the test functions in ``test_code`` (they fail at the base commit)."""
