"""An offline dataset of mixed quality: noisy expert episodes and uniformly random ones."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.solar.game import MOVES, GridGame


@dataclass(frozen=True)
class Dataset:
    """Transitions (state, joint action, reward, next state, done)."""

    states: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    next_states: np.ndarray
    dones: np.ndarray


def expert_actions(game: GridGame, state: np.ndarray) -> np.ndarray:
    """Each agent steps down or right toward the goal (down first), staying once there."""
    moves = []
    for cell in game.positions(state):
        row, column = np.divmod(cell, game.size)
        moves.append(np.where(row < game.size - 1, 2, np.where(column < game.size - 1, 4, 0)))
    return moves[0] * len(MOVES) + moves[1]


def collect(game: GridGame, rng: np.random.Generator, *, episodes: int = 60, expert_share: float = 0.3,
            noise: float = 0.3, length: int = 30) -> Dataset:
    """``episodes`` episodes from the start states; a share follow the noisy expert, the rest act at random."""
    records: list[tuple[np.ndarray, ...]] = []
    state = rng.choice(game.starts(), episodes)
    expert = rng.random(episodes) < expert_share
    alive = np.ones(episodes, dtype=bool)
    for _ in range(length):
        random_action = rng.integers(game.actions, size=episodes)
        use_expert = expert & (rng.random(episodes) >= noise)
        action = np.where(use_expert, expert_actions(game, state), random_action)
        following, reward, done = game.step(state, action)
        records.append((state[alive], action[alive], reward[alive], following[alive], done[alive]))
        alive &= ~done
        state = following
    return Dataset(*(np.concatenate(parts) for parts in zip(*records)))
