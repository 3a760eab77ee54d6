import numpy as np

from numerics.solar.game import GridGame


def test_both_agents_on_the_goal_end_the_episode_with_reward():
    game = GridGame(size=3)
    before_goal = 5 * game.cells + 5  # both one step above the goal (cell 8)
    following, reward, done = game.step(np.array([before_goal]), np.array([2 * 5 + 2]))  # both move down
    assert following[0] == game.goal * game.cells + game.goal and reward[0] == 1 and done[0]
    _, reward, done = game.step(np.array([before_goal]), np.array([2 * 5 + 0]))  # one waits
    assert reward[0] == 0 and not done[0]


def test_walls_stop_moves_and_the_potential_peaks_at_the_goal():
    game = GridGame(size=3)
    following, _, _ = game.step(np.array([0]), np.array([1 * 5 + 3]))  # up and left from the corner
    assert following[0] == 0
    potential = game.potential(np.arange(game.states))
    assert potential.argmax() == game.goal * game.cells + game.goal and potential.min() == -1.0
