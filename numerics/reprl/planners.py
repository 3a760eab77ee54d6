"""The two replicable planners: backward induction on replicable value queries (ours), and the naive baseline that
replicably estimates every transition probability and plans in the rounded model.

Both take the per-query sample size ``n`` as an argument (the sweep varies it; :mod:`numerics.reprl.queries` gives
the size the analysis asks for), the grid widths from (epsilon, S, H), the shared internal randomness as a seed, and a
generator of their own samples. Same ``shared_seed`` + independent ``samples`` is one replication trial.
"""

from __future__ import annotations

import numpy as np

from numerics.reprl.mdp import TabularMDP, backward_induction, greedy, sample_counts
from numerics.reprl.queries import naive_width, ours_width, replicable_round


def _shared(shared_seed: int, offsets_shape: tuple[int, ...], priority_shape: tuple[int, ...]):
    """Grid offsets in [0, 1) and tie-breaking priorities, both from the shared internal randomness."""
    rng = np.random.default_rng(shared_seed)
    return rng.uniform(0.0, 1.0, size=offsets_shape), rng.permuted(
        np.broadcast_to(np.arange(priority_shape[-1]), priority_shape), axis=-1)


def replicable_backward_induction(mdp: TabularMDP, n: int, epsilon: float, shared_seed: int,
                                  samples: np.random.Generator) -> np.ndarray:
    """Policy (H, S) from H stages of S A replicable queries ``r + E[V_{h+1}(s')]``, fresh samples each stage."""
    shape = (mdp.horizon, mdp.states, mdp.actions)
    offsets, priority = _shared(shared_seed, shape, shape)
    width = ours_width(epsilon, mdp.horizon)
    value = np.zeros(mdp.states)
    policy = np.zeros((mdp.horizon, mdp.states), dtype=int)
    for h in reversed(range(mdp.horizon)):
        means = mdp.rewards[h] + sample_counts(mdp, h, n, samples) @ value / n
        q = replicable_round(means, width, offsets[h])
        policy[h] = greedy(q, priority[h])
        value = np.take_along_axis(q, policy[h][:, None], axis=1)[:, 0]
    return policy


def rounded_model(mdp: TabularMDP, n: int, epsilon: float, offsets: np.ndarray,
                  samples: np.random.Generator) -> TabularMDP:
    """Every P_h(s'|s, a) replicably rounded, clipped at zero and renormalised (a uniform row if none is left)."""
    width = naive_width(epsilon, mdp.states, mdp.horizon)
    counts = np.stack([sample_counts(mdp, h, n, samples) for h in range(mdp.horizon)])
    rounded = np.clip(replicable_round(counts / n, width, offsets), 0.0, None)
    mass = rounded.sum(axis=-1, keepdims=True)
    uniform = np.full_like(rounded, 1.0 / mdp.states)
    return TabularMDP(np.where(mass > 0, rounded / np.where(mass > 0, mass, 1.0), uniform), mdp.rewards)


def naive_replicable_planning(mdp: TabularMDP, n: int, epsilon: float, shared_seed: int,
                              samples: np.random.Generator) -> np.ndarray:
    """Policy (H, S): exact backward induction in the replicably rounded model, shared random tie-breaking."""
    h, s, a = mdp.horizon, mdp.states, mdp.actions
    offsets, priority = _shared(shared_seed, (h, s, a, s), (h, s, a))
    return backward_induction(rounded_model(mdp, n, epsilon, offsets, samples), priority)[1]


PLANNERS = {"ours": replicable_backward_induction, "naive": naive_replicable_planning}
