"""Random finite-horizon tabular MDPs, a generative sampler, and exact planning by backward induction."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_DRAWS = 2**62  # the multinomial sampler's counts are int64

@dataclass(frozen=True)
class TabularMDP:
    """Time-inhomogeneous MDP: ``transitions[h, s, a]`` is P_h(.|s, a), ``rewards[h, s, a]`` the known mean reward."""

    transitions: np.ndarray  # (H, S, A, S), rows sum to one
    rewards: np.ndarray  # (H, S, A), in [0, 1]

    @property
    def horizon(self) -> int:
        return self.rewards.shape[0]

    @property
    def states(self) -> int:
        return self.rewards.shape[1]

    @property
    def actions(self) -> int:
        return self.rewards.shape[2]


def random_mdp(states: int, actions: int, horizon: int, seed: int, tied: int = 2, gap: float = 0.4) -> TabularMDP:
    """Dirichlet(1) transition rows and rewards in [0, 1] set so that, at every (h, s), the first ``tied`` actions
    (then shuffled) have exactly equal optimal values and each other action is worse by a gap uniform in [0, gap].

    Exact ties are the hard case for replicability: a plain argmax of estimated values flips between tied actions
    with probability about one half in each run, so only the shared-randomness mechanism can make two runs agree.
    With ``tied=1`` the instance is a generic random MDP with a unique best action at every state.
    """
    rng = np.random.default_rng(seed)
    transitions = np.empty((horizon, states, actions, states))
    rewards = np.empty((horizon, states, actions))
    value = np.zeros(states)
    for h in reversed(range(horizon)):
        gaps = np.concatenate([np.zeros((states, tied)), rng.uniform(0, gap, (states, actions - tied))], axis=1)
        gaps = rng.permuted(gaps, axis=1)
        transitions[h] = _rows_within(rng, value, gaps, states, actions)
        target = transitions[h] @ value + gaps  # r = c - P V - gap gives Q*(s, a) = c - gap
        low, high = target.min(axis=1), target.max(axis=1)
        level = high + rng.uniform(0, 1, states) * (low + 1 - high)
        rewards[h] = level[:, None] - target
        value = level
    return TabularMDP(transitions, rewards)


def _rows_within(rng: np.random.Generator, value: np.ndarray, gaps: np.ndarray, states: int,
                 actions: int) -> np.ndarray:
    """Dirichlet rows, redrawn at the states where ``P V + gap`` spreads over more than 1 (rewards must fit [0, 1])."""
    rows = rng.dirichlet(np.ones(states), size=(states, actions))
    for _ in range(1000):
        target = rows @ value + gaps
        bad = np.ptp(target, axis=1) > 1
        if not bad.any():
            return rows
        rows[bad] = rng.dirichlet(np.ones(states), size=(int(bad.sum()), actions))
    raise ValueError("cannot fit rewards in [0, 1]: lower the gap or the horizon")


def sample_counts(mdp: TabularMDP, stage: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """Generative model: ``n`` next-state draws from every (s, a) at ``stage``, returned as counts (S, A, S).

    A multinomial draw of the counts has exactly the law of ``n`` independent calls to the generator, and costs
    the same for every ``n``, which is what lets the sweep reach very large sample sizes.
    """
    if n > MAX_DRAWS:
        raise ValueError(f"{n} draws per (s, a) exceed the sampler's limit of 2^62")
    return rng.multinomial(n, mdp.transitions[stage])


def greedy(q: np.ndarray, priority: np.ndarray | None = None) -> np.ndarray:
    """Argmax over the last axis; ties go to the higher ``priority`` (the lowest index when none is given)."""
    if priority is None:
        return q.argmax(axis=-1)
    return np.lexsort((priority, q), axis=-1)[..., -1]


def backward_induction(mdp: TabularMDP, priority: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Exact optimal values V*_h (H + 1, S; V*_H = 0) and a greedy optimal policy (H, S)."""
    values = np.zeros((mdp.horizon + 1, mdp.states))
    policy = np.zeros((mdp.horizon, mdp.states), dtype=int)
    for h in reversed(range(mdp.horizon)):
        q = mdp.rewards[h] + mdp.transitions[h] @ values[h + 1]
        policy[h] = greedy(q, None if priority is None else priority[h])
        values[h] = np.take_along_axis(q, policy[h][:, None], axis=1)[:, 0]
    return values, policy


def policy_values(mdp: TabularMDP, policy: np.ndarray) -> np.ndarray:
    """Exact values V^pi_h (H + 1, S) of a deterministic Markov policy (H, S)."""
    values = np.zeros((mdp.horizon + 1, mdp.states))
    every = np.arange(mdp.states)
    for h in reversed(range(mdp.horizon)):
        chosen = policy[h]
        values[h] = mdp.rewards[h][every, chosen] + mdp.transitions[h][every, chosen] @ values[h + 1]
    return values


def suboptimality(mdp: TabularMDP, policy: np.ndarray, optimal: np.ndarray | None = None) -> float:
    """max_s V*_0(s) - V^pi_0(s), with V*_0 given as ``optimal`` or computed: epsilon-optimal when at most epsilon."""
    best = backward_induction(mdp)[0][0] if optimal is None else optimal
    return float(np.max(best - policy_values(mdp, policy)[0]))
