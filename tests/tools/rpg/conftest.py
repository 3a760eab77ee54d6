import pytest

from agents.rpg.build import build_rpg
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.source import read_directory
from benchmarks.repo.demo import build_demo
from tools.rpg.workspace import RPGWorkspace


@pytest.fixture
def workspace(tmp_path):
    """The demo repository's RPG, reading code from its working tree."""
    repo, _ = build_demo(tmp_path)
    rpg, _ = build_rpg(read_directory(repo, 10**6), OfflineLifter(), name="shop")
    return RPGWorkspace(rpg, root=repo)
