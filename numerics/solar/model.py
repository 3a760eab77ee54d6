"""The tabular world model fitted to the offline data, with a count-based uncertainty."""

from __future__ import annotations

import numpy as np

from numerics.solar.data import Dataset
from numerics.solar.game import GridGame


class WorldModel:
    """Most frequent observed outcome per (state, action); unseen pairs stay put with no reward."""

    def __init__(self, game: GridGame, data: Dataset):
        self.game = game
        self.counts = np.zeros((game.states, game.actions))
        np.add.at(self.counts, (data.states, data.actions), 1)
        self.next_state = np.tile(np.arange(game.states)[:, None], (1, game.actions))
        self.reward = np.zeros((game.states, game.actions))
        self.done = np.zeros((game.states, game.actions), dtype=bool)
        self.next_state[data.states, data.actions] = data.next_states  # the game is deterministic
        self.reward[data.states, data.actions] = data.rewards
        self.done[data.states, data.actions] = data.dones

    def step(self, state: np.ndarray, action: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.next_state[state, action], self.reward[state, action], self.done[state, action]

    def state_confidence(self, saturation: float = 3.0) -> np.ndarray:
        """Per state in [0, 1]: how well the data cover it (visits over ``saturation``, capped at 1)."""
        return np.minimum(self.counts.sum(axis=1) / saturation, 1.0)
