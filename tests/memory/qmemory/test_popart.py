import math

import pytest

from memory.qmemory.popart import PopArt


def test_first_reward_moves_the_statistics_then_normalises():
    stats = PopArt(beta=0.1, min_std=0.01)
    value = stats.normalise(0.5)
    # mean = 0.1 * 0.5 = 0.05; second = 0.9 * 1 + 0.1 * 0.25 = 0.925; var = 0.925 - 0.0025 = 0.9225
    assert stats.mean == pytest.approx(0.05)
    assert stats.second == pytest.approx(0.925)
    assert value == pytest.approx(0.45 / math.sqrt(0.9225))
    assert value == pytest.approx(0.468521, abs=1e-6)


def test_second_reward_uses_the_updated_running_moments():
    stats = PopArt(beta=0.1, min_std=0.01)
    stats.normalise(0.5)
    value = stats.normalise(-1.0)
    # mean = 0.9 * 0.05 - 0.1 = -0.055; second = 0.9 * 0.925 + 0.1 = 0.9325; var = 0.9325 - 0.003025
    assert stats.mean == pytest.approx(-0.055)
    assert stats.std == pytest.approx(math.sqrt(0.929475))
    assert value == pytest.approx(-0.945 / math.sqrt(0.929475))
    assert value == pytest.approx(-0.980196, abs=1e-6)
    assert stats.count == 2


def test_constant_rewards_shrink_the_scale_to_the_floor():
    stats = PopArt(beta=0.5, min_std=0.05)
    for _ in range(60):
        stats.normalise(0.2)
    assert stats.std == pytest.approx(0.05)
    assert stats.normalise(0.2) == pytest.approx(0.0, abs=1e-9)
