"""The three SOLAR checks: policy invariance, faster and steadier learning, and what a non-potential bonus does."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.solar.data import collect
from numerics.solar.game import GridGame
from numerics.solar.learn import LearnConfig, learn


def value_iteration(game: GridGame, extra: np.ndarray | None = None, sweeps: int = 400) -> np.ndarray:
    """Q* of the true game, with ``extra`` (states, actions) added to the reward when given."""
    every = np.arange(game.states)
    following, reward, done = game.step(np.repeat(every, game.actions), np.tile(np.arange(game.actions), game.states))
    following, reward, done = (x.reshape(game.states, game.actions) for x in (following, reward, done))
    reward = reward + (0.0 if extra is None else extra)
    q = np.zeros((game.states, game.actions))
    for _ in range(sweeps):
        q = reward + game.gamma * (~done) * q.max(axis=1)[following]
    return q


def policy_value(game: GridGame, policy: np.ndarray, horizon: int = 200) -> float:
    """Mean discounted true return of a deterministic joint policy from the start states."""
    state = game.starts()
    alive, total = np.ones(len(state), dtype=bool), np.zeros(len(state))
    for t in range(horizon):
        state, reward, done = game.step(state, policy[state])
        total += alive * reward * game.gamma**t
        alive &= ~done
    return float(total.mean())


def invariance_check(game: GridGame, config: LearnConfig) -> dict:
    """Exact planning with r, with r + gamma Phi(s') - Phi(s), and with the bonus: true value of each greedy policy."""
    every = np.arange(game.states)
    following, _, done = game.step(np.repeat(every, game.actions), np.tile(np.arange(game.actions), game.states))
    phi = config.scale * game.potential(every)
    potential = (game.gamma * phi[following] * (~done)).reshape(game.states, game.actions) - phi[:, None]
    bonus = config.bonus * (game.positions(following)[0] == game.goal).reshape(game.states, game.actions)
    return {name: policy_value(game, value_iteration(game, extra).argmax(axis=1))
            for name, extra in (("original", None), ("potential", potential), ("bonus", bonus))}


def steps_to(curve: list[float], level: float, every: int) -> int | None:
    """Iterations until the success rate first reaches ``level`` (None: never)."""
    return next(((i + 1) * every for i, value in enumerate(curve) if value >= level), None)


@dataclass(frozen=True)
class CheckConfig:
    """Seeds (each a fresh offline dataset and learner) and the learner's settings."""

    seeds: int = 8
    seed: int = 0
    iterations: int = 400
    warm_up: int = 20  # curve points skipped before the oscillation is measured


def run_check(config: CheckConfig = CheckConfig()) -> tuple[dict, list[dict]]:
    """Learn with each mode on every seed's dataset; compare against exact planning."""
    from numerics.solar.model import WorldModel

    game, learn_config = GridGame(), LearnConfig(iterations=config.iterations)
    curves: dict[str, list[list[float]]] = {"none": [], "solar": [], "bonus": []}
    switched = []
    for seed in range(config.seed, config.seed + config.seeds):
        model = WorldModel(game, collect(game, np.random.default_rng(seed)))
        for mode in curves:
            _, curve = learn(model, game.starts(), mode, np.random.default_rng(seed + 1000), learn_config)
            curves[mode].append(curve.success)
            switched += [curve.shaping_from] if mode == "solar" else []
    return _report(config, invariance_check(game, learn_config), curves, switched, learn_config.every)


def _report(config, planned: dict, curves: dict, switched: list, every: int) -> tuple[dict, list[dict]]:
    area = {mode: np.mean(c, axis=1) for mode, c in curves.items()}  # per seed: mean success over the curve
    final = {mode: np.array([c[-1] for c in cs]) for mode, cs in curves.items()}
    late = {mode: np.array([np.mean(c[-10:]) for c in cs]) for mode, cs in curves.items()}
    wobble = {mode: float(np.mean([np.abs(np.diff(c[config.warm_up:])).mean() for c in cs]))
              for mode, cs in curves.items()}  # mean change of the success rate between curve points
    reach = {mode: [steps_to(c, 0.5, every) for c in cs] for mode, cs in curves.items()}
    rows = [
        {"check": "policy invariance under potential shaping",
         "paper": "potential-based shaping leaves the optimal policy unchanged (exact)",
         "measured": f"true value of the optimal policy {planned['original']:.4f}, of the potential-shaped "
                     f"optimum {planned['potential']:.4f}",
         "passed": abs(planned["potential"] - planned["original"]) < 1e-9},
        {"check": "SOLAR learns faster and more stably than no shaping",
         "paper": "faster, more stable learning (no number at this scale); direction: area under the success "
                  "curve at least 1.15x, smaller oscillation and spread of the late success rate",
         "measured": f"area {area['solar'].mean():.3f} vs {area['none'].mean():.3f} "
                     f"({_ratio(area['solar'].mean(), area['none'].mean())}); oscillation {wobble['solar']:.3f} vs "
                     f"{wobble['none']:.3f}; late success {late['solar'].mean():.2f} +- {late['solar'].std():.2f} vs "
                     f"{late['none'].mean():.2f} +- {late['none'].std():.2f}; iterations to 50% success "
                     f"{reach['solar']} vs {reach['none']}; shaping switched on at {switched}",
         "passed": bool(area["solar"].mean() >= 1.15 * area["none"].mean() and wobble["solar"] < wobble["none"]
                        and late["solar"].std() < late["none"].std())},
        {"check": "a non-potential bonus changes the learned policy",
         "paper": "non-potential shaping can change the optimal policy; direction: lower true success",
         "measured": f"planned true value with the bonus {planned['bonus']:.4f} (optimum {planned['original']:.4f}); "
                     f"learned final success {final['bonus'].mean():.2f} vs {final['none'].mean():.2f} unshaped",
         "passed": bool(planned["bonus"] < 0.5 * planned["original"] and final["bonus"].mean() < final["none"].mean())},
    ]
    summary = {"seeds": config.seeds, "seed": config.seed, "planned_true_values": planned,
               "final_success": {m: v.tolist() for m, v in final.items()},
               "curve_area": {m: v.tolist() for m, v in area.items()}, "oscillation": wobble,
               "passed": sum(r["passed"] for r in rows), "checks": len(rows)}
    return summary, rows


def _ratio(value: float, base: float) -> str:
    """``value / base`` as ``1.23x``; a zero base (no learning at all without shaping) has no ratio."""
    return f"{value / base:.2f}x" if base > 0 else "no ratio: zero area without shaping"

