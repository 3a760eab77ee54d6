"""The replicable planners. Each takes the per-query sample size ``n`` (the cap, for the adaptive one), epsilon, rho,
the shared internal randomness as a seed and a generator of its own samples, and returns the policy (H, S) and the
generator calls it made. Same ``shared_seed`` with independent ``samples`` is one replication trial.

- ``ours``: backward induction, one adaptive replicable SQ per (s, a, h) for ``r + E[V_{h+1}(s')]`` against the
  already rounded V_{h+1} (:mod:`numerics.reprl.adaptive`); rho only sets the queries' confidence.
- ``fixed``: the same backward induction with fixed-size queries (``n`` samples each, :mod:`numerics.reprl.queries`).
- ``naive``: every P_h(s'|s, a) estimated from ``n`` samples and replicably rounded, then exact planning in the
  rounded model.
"""

from __future__ import annotations

import numpy as np

from numerics.reprl.adaptive import adaptive_queries, cap, expected_samples
from numerics.reprl.mdp import TabularMDP, backward_induction, greedy, sample_counts
from numerics.reprl.queries import naive_samples, naive_width, ours_samples, ours_width, replicable_round


def _shared(shared_seed: int, offsets_shape: tuple[int, ...], priority_shape: tuple[int, ...]):
    """Grid offsets in [0, 1) and tie-breaking priorities, both from the shared internal randomness."""
    rng = np.random.default_rng(shared_seed)
    return rng.uniform(0.0, 1.0, size=offsets_shape), rng.permuted(
        np.broadcast_to(np.arange(priority_shape[-1]), priority_shape), axis=-1)


def _fixed_stage(mdp, h, value, width, offsets, n, rho, samples):
    means = mdp.rewards[h] + sample_counts(mdp, h, n, samples) @ value / n
    return replicable_round(means, width, offsets), n * mdp.states * mdp.actions


def _adaptive_stage(mdp, h, value, width, offsets, n, rho, samples):
    rows, rewards = mdp.transitions[h].reshape(-1, mdp.states), mdp.rewards[h].ravel()

    def draw(active: np.ndarray, extra: int) -> np.ndarray:
        return samples.multinomial(extra, rows[active]) @ value + extra * rewards[active]

    queries = mdp.states * mdp.actions * mdp.horizon
    spread = float(np.ptp(value))  # the exact range of r + V_{h+1}(s'): Hoeffding needs no more
    answers, used = adaptive_queries(draw, rows.shape[0], spread, width, offsets.ravel(), n, rho / (4 * queries))
    return answers.reshape(mdp.states, mdp.actions), int(used.sum())


def _backward_induction(stage, mdp: TabularMDP, n: int, epsilon: float, rho: float, shared_seed: int,
                        samples: np.random.Generator) -> tuple[np.ndarray, int]:
    """H stages of S A replicable queries, fresh samples each stage, greedy with shared random tie-breaking."""
    shape = (mdp.horizon, mdp.states, mdp.actions)
    offsets, priority = _shared(shared_seed, shape, shape)
    width, value, calls = ours_width(epsilon, mdp.horizon), np.zeros(mdp.states), 0
    policy = np.zeros((mdp.horizon, mdp.states), dtype=int)
    for h in reversed(range(mdp.horizon)):
        q, used = stage(mdp, h, value, width, offsets[h], n, rho, samples)
        policy[h], calls = greedy(q, priority[h]), calls + used
        value = np.take_along_axis(q, policy[h][:, None], axis=1)[:, 0]
    return policy, calls


def replicable_backward_induction(mdp, n, epsilon, rho, shared_seed, samples):
    """Ours: adaptive replicable value queries with cap ``n``."""
    return _backward_induction(_adaptive_stage, mdp, n, epsilon, rho, shared_seed, samples)


def fixed_backward_induction(mdp, n, epsilon, rho, shared_seed, samples):
    """Fixed-size replicable value queries of ``n`` samples each."""
    return _backward_induction(_fixed_stage, mdp, n, epsilon, rho, shared_seed, samples)


def rounded_model(mdp: TabularMDP, n: int, epsilon: float, offsets: np.ndarray,
                  samples: np.random.Generator) -> TabularMDP:
    """Every P_h(s'|s, a) replicably rounded, clipped at zero and renormalised (a uniform row if none is left)."""
    width = naive_width(epsilon, mdp.states, mdp.horizon)
    counts = np.stack([sample_counts(mdp, h, n, samples) for h in range(mdp.horizon)])
    rounded = np.clip(replicable_round(counts / n, width, offsets), 0.0, None)
    mass = rounded.sum(axis=-1, keepdims=True)
    uniform = np.full_like(rounded, 1.0 / mdp.states)
    return TabularMDP(np.where(mass > 0, rounded / np.where(mass > 0, mass, 1.0), uniform), mdp.rewards)


def naive_replicable_planning(mdp, n, epsilon, rho, shared_seed, samples):
    """Naive: exact backward induction in the replicably rounded model, shared random tie-breaking."""
    h, s, a = mdp.horizon, mdp.states, mdp.actions
    offsets, priority = _shared(shared_seed, (h, s, a, s), (h, s, a))
    policy = backward_induction(rounded_model(mdp, n, epsilon, offsets, samples), priority)[1]
    return policy, n * h * s * a


PLANNERS = {"ours": replicable_backward_induction, "fixed": fixed_backward_induction,
            "naive": naive_replicable_planning}


def analysis_samples(planner: str, epsilon: float, rho: float, states: int, actions: int, horizon: int) -> int:
    """The per-query n (the cap, for ours) that the analysis derives for replicability rho and epsilon-optimality."""
    if planner == "ours":
        return cap(states * actions * horizon, horizon, ours_width(epsilon, horizon), rho)
    size = ours_samples if planner == "fixed" else naive_samples
    return size(epsilon, rho, states, actions, horizon)


def analysis_total(planner: str, epsilon: float, rho: float, states: int, actions: int, horizon: int) -> float:
    """The analysis' samples per run: n S A H, or for ours the expected-sample bound times S A H."""
    n, queries = analysis_samples(planner, epsilon, rho, states, actions, horizon), states * actions * horizon
    if planner == "ours":
        return queries * expected_samples(queries, horizon, ours_width(epsilon, horizon), rho, n)
    return float(queries * n)
