"""Q-learning on world-model rollouts with no shaping, SOLAR's plateau-gated potential shaping, always-on potential
shaping, or a non-potential bonus; greedy evaluation on the true game."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.stats import ttest_ind

from numerics.solar.game import GridGame
from numerics.solar.model import WorldModel

MODES = ("none", "solar", "potential", "bonus")


@dataclass(frozen=True)
class LearnConfig:
    """Rollout Q-learning settings and SOLAR's plateau test."""

    iterations: int = 300
    batch: int = 128
    rollout: int = 4
    epsilon: float = 0.2
    rate: float = 0.5
    scale: float = 1.0  # the potential's weight
    bonus: float = 0.1  # the non-potential bonus for agent 1 standing on the goal
    every: int = 10  # iterations between plateau tests (and curve points)
    window: int = 3  # test points on each side of the plateau test
    alpha: float = 0.1  # an improvement with p below this is no plateau


@dataclass
class Curve:
    """Greedy success rate on the true game after every ``every`` iterations, and when shaping switched on."""

    success: list[float] = field(default_factory=list)
    shaping_from: int | None = None


def greedy_success(game: GridGame, q: np.ndarray, starts: np.ndarray, horizon: int = 30) -> float:
    """Share of the start states from which the greedy joint policy reaches the goal together in time."""
    state, done = starts.copy(), np.zeros(len(starts), dtype=bool)
    for _ in range(horizon):
        state, _, finished = game.step(state, q[state].argmax(axis=1))
        done |= finished
        state = np.where(done, starts, state)
    return float(done.mean())


def model_return(model: WorldModel, q: np.ndarray, starts: np.ndarray, horizon: int = 30) -> float:
    """Mean discounted return of the greedy policy in the world model (what an offline learner can see)."""
    state, alive, total = starts.copy(), np.ones(len(starts), dtype=bool), np.zeros(len(starts))
    for t in range(horizon):
        state, reward, done = model.step(state, q[state].argmax(axis=1))
        total += alive * reward * model.game.gamma**t
        alive &= ~done
    return float(total.mean())


def plateaued(history: list[float], config: LearnConfig) -> bool:
    """Welch's t-test: the last ``window`` model returns are no significantly better than the ones before."""
    if len(history) < 2 * config.window:
        return False
    before, after = history[-2 * config.window:-config.window], history[-config.window:]
    if np.ptp(before + after) == 0:
        return True
    result = ttest_ind(after, before, equal_var=False, alternative="greater")
    return bool(np.isnan(result.pvalue) or result.pvalue >= config.alpha)


def shaping(mode: str, model: WorldModel, config: LearnConfig, state, following, done) -> np.ndarray:
    """The added reward: gamma Phi(s') - Phi(s) with a coverage-throttled potential, or the bonus."""
    game = model.game
    if mode == "bonus":
        return config.bonus * (game.positions(following)[0] == game.goal)
    potential = config.scale * game.potential(np.arange(game.states)) * model.state_confidence()
    return game.gamma * potential[following] * (~done) - potential[state]


def learn(model: WorldModel, starts: np.ndarray, mode: str, rng: np.random.Generator,
          config: LearnConfig = LearnConfig()) -> tuple[np.ndarray, Curve]:
    """Train a joint Q table on rollouts from the data's states; return it with its learning curve."""
    if mode not in MODES:
        raise ValueError(f"unknown shaping mode {mode!r}; choose from {MODES}")
    game, curve, history = model.game, Curve(), []
    q = np.zeros((game.states, game.actions))
    shaped = mode in ("potential", "bonus")
    seen = np.flatnonzero(model.counts.sum(axis=1))
    for iteration in range(1, config.iterations + 1):
        state = rng.choice(seen, config.batch)
        for _ in range(config.rollout):
            explore = rng.random(config.batch) < config.epsilon
            action = np.where(explore, rng.integers(game.actions, size=config.batch), q[state].argmax(axis=1))
            following, reward, done = model.step(state, action)
            extra = shaping(mode, model, config, state, following, done) if shaped else 0.0
            target = reward + extra + game.gamma * (~done) * q[following].max(axis=1)
            q[state, action] += config.rate * (target - q[state, action])
            state = np.where(done, rng.choice(seen, config.batch), following)
        if iteration % config.every == 0:
            curve.success.append(greedy_success(game, q, game.starts()))
            history.append(model_return(model, q, starts))
            if mode == "solar" and not shaped and plateaued(history, config):
                shaped, curve.shaping_from = True, iteration
    return q, curve
