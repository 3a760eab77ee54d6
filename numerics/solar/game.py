"""The cooperative grid game: two agents must stand on the goal cell together; reward 1 then, else 0."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MOVES = np.array([[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]])  # stay, up, down, left, right


@dataclass(frozen=True)
class GridGame:
    """A ``size`` x ``size`` grid, goal in the far corner; joint states and joint actions are integers."""

    size: int = 5
    gamma: float = 0.95

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def states(self) -> int:
        return self.cells * self.cells

    @property
    def actions(self) -> int:
        return len(MOVES) ** 2

    @property
    def goal(self) -> int:
        return self.cells - 1

    def positions(self, state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each agent's cell index."""
        return np.divmod(state, self.cells)

    def _move(self, cell: np.ndarray, move: np.ndarray) -> np.ndarray:
        row, column = np.divmod(cell, self.size)
        row = np.clip(row + MOVES[move, 0], 0, self.size - 1)
        column = np.clip(column + MOVES[move, 1], 0, self.size - 1)
        return row * self.size + column

    def step(self, state: np.ndarray, action: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Next joint state, reward and done for arrays of joint states and joint actions."""
        first, second = self.positions(state)
        move_first, move_second = np.divmod(action, len(MOVES))
        first, second = self._move(first, move_first), self._move(second, move_second)
        done = (first == self.goal) & (second == self.goal)
        return first * self.cells + second, done.astype(float), done

    def potential(self, state: np.ndarray) -> np.ndarray:
        """Phi(s): minus the agents' summed Manhattan distances to the goal, scaled to [-1, 0]."""
        total = np.zeros(np.shape(state), dtype=float)
        for cell in self.positions(state):
            row, column = np.divmod(cell, self.size)
            total += (self.size - 1 - row) + (self.size - 1 - column)
        return -total / (4 * (self.size - 1))

    def starts(self) -> np.ndarray:
        """Start states: both agents anywhere in the first column."""
        column = np.arange(self.size) * self.size
        return (column[:, None] * self.cells + column[None, :]).ravel()
