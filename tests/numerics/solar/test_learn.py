import numpy as np
import pytest

from numerics.solar.data import collect
from numerics.solar.game import GridGame
from numerics.solar.learn import LearnConfig, learn, plateaued
from numerics.solar.model import WorldModel


def test_the_plateau_test_separates_flat_from_rising():
    config = LearnConfig(window=3, alpha=0.1)
    assert plateaued([0.0] * 6, config)
    assert plateaued([0.2, 0.3, 0.25, 0.3, 0.2, 0.28], config)
    assert not plateaued([0.1, 0.12, 0.11, 0.5, 0.52, 0.55], config)
    assert not plateaued([0.0] * 5, config)  # too few points


def test_solar_switches_shaping_on_after_the_first_plateau():
    game = GridGame()
    model = WorldModel(game, collect(game, np.random.default_rng(0)))
    _, curve = learn(model, game.starts(), "solar", np.random.default_rng(1), LearnConfig(iterations=80))
    assert curve.shaping_from == 60 and len(curve.success) == 8
    with pytest.raises(ValueError, match="unknown shaping mode"):
        learn(model, game.starts(), "random", np.random.default_rng(1))
