"""One communication round: honest nodes send messages, Byzantine nodes send attacks, honest nodes aggregate."""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from numerics.decentralized.aggregators import make_aggregator
from numerics.decentralized.attacks import DEFAULT_SCALE, byzantine_messages
from numerics.decentralized.topology import metropolis_weights


@dataclass
class Network:
    """A graph, its Metropolis weights, the Byzantine node set, the attack and the aggregator."""

    graph: nx.Graph
    byzantine: frozenset[int] = frozenset()
    attack: str = "sign_flip"
    aggregator: str = "trimmed"
    attack_scale: float | None = None
    seed: int = 0
    weights: np.ndarray = field(init=False)
    honest: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.weights = metropolis_weights(self.graph)
        self.honest = np.array(sorted(set(self.graph.nodes) - set(self.byzantine)))
        self._neighbours = {i: np.array(sorted(self.graph.neighbors(i))) for i in self.graph.nodes}
        trim = max((len(set(self._neighbours[i]) & set(self.byzantine)) for i in self.honest), default=0)
        self.trim = trim
        self._aggregate = make_aggregator(self.aggregator, trim)
        self._rng = np.random.default_rng(self.seed)
        self._scale = DEFAULT_SCALE[self.attack] if self.attack_scale is None else self.attack_scale

    def gossip(self, messages: np.ndarray) -> np.ndarray:
        """Aggregate ``messages`` (nodes, dim); Byzantine rows are replaced by attacks. Returns new honest rows."""
        sent = messages.copy()
        if self.byzantine:
            bad = np.array(sorted(self.byzantine))
            sent[bad] = byzantine_messages(self.attack, messages[self.honest], len(bad), self._rng, self._scale)
        out = messages.copy()
        for i in self.honest:
            neighbours = self._neighbours[i]
            out[i] = self._aggregate(sent[i], sent[neighbours] - sent[i], self.weights[i, neighbours])
        return out
