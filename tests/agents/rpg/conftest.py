"""Fixture repositories: the demo shop (three planted bugs) built as a real git repository."""

import pytest

from agents.rpg.build import build_rpg
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.source import read_commit
from benchmarks.repo.demo import build_demo


@pytest.fixture
def demo(tmp_path):
    """``(repo path, instances)`` of the demo repository."""
    return build_demo(tmp_path)


@pytest.fixture
def demo_rpg(demo):
    repo, instances = demo
    rpg, _ = build_rpg(read_commit(repo, instances[0]["base_commit"]), OfflineLifter(),
                       commit=instances[0]["base_commit"])
    return rpg
