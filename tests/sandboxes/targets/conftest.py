"""Fixtures for the target tests: a real local sandbox and a build cache the sandbox can see."""

from __future__ import annotations

import shutil
import uuid

import pytest

from sandboxes.targets.cache import BuildCache, default_cache_root


@pytest.fixture(scope="session")
def sandbox():
    """The real local sandbox backend."""
    from sandboxes.select import get_sandbox

    return get_sandbox("local")


@pytest.fixture
def fresh_cache():
    """An empty build cache under the default root (a private /tmp in the sandbox would hide tmp_path)."""
    root = default_cache_root() / f"test-{uuid.uuid4().hex[:8]}"
    root.mkdir(mode=0o755)
    yield BuildCache(root)
    shutil.rmtree(root, ignore_errors=True)
