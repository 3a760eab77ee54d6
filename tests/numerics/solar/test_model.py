import numpy as np

from numerics.solar.data import collect
from numerics.solar.game import GridGame
from numerics.solar.model import WorldModel


def test_the_model_replays_seen_transitions_and_holds_unseen_ones():
    game = GridGame()
    data = collect(game, np.random.default_rng(1), episodes=10)
    model = WorldModel(game, data)
    following, reward, _ = model.step(data.states, data.actions)
    assert np.array_equal(following, data.next_states) and np.array_equal(reward, data.rewards)
    unseen = np.flatnonzero(model.counts.sum(axis=1) == 0)[0]
    assert model.step(np.array([unseen]), np.array([3]))[0][0] == unseen
    assert model.state_confidence()[unseen] == 0 and model.state_confidence().max() == 1
