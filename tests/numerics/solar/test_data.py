import numpy as np

from numerics.solar.data import collect, expert_actions
from numerics.solar.game import GridGame


def test_the_expert_reaches_the_goal_from_every_start():
    game = GridGame()
    state = game.starts()
    for _ in range(2 * game.size):
        state, _, _ = game.step(state, expert_actions(game, state))
    assert np.all(state == game.goal * game.cells + game.goal)


def test_the_dataset_mixes_successes_and_failures():
    data = collect(GridGame(), np.random.default_rng(0))
    assert 0 < data.rewards.sum() < 60 and len(data.states) == len(data.next_states) > 500
