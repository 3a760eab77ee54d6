import networkx as nx
import numpy as np

from numerics.decentralized.network import Network


def test_honest_gossip_equals_metropolis_mixing():
    graph = nx.cycle_graph(6)
    network = Network(graph, aggregator="mean")
    messages = np.arange(12.0).reshape(6, 2)
    assert np.allclose(network.gossip(messages), network.weights @ messages)


def test_byzantine_nodes_are_excluded_and_trim_is_sized_to_them():
    graph = nx.complete_graph(7)
    network = Network(graph, byzantine=frozenset({0, 1}), aggregator="trimmed", attack="sign_flip")
    assert network.trim == 2 and list(network.honest) == [2, 3, 4, 5, 6]
    messages = np.ones((7, 3))
    # honest nodes agree; trimming removes both attackers, so consensus is kept exactly
    assert np.allclose(network.gossip(messages)[network.honest], 1.0)
