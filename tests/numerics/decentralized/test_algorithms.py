import numpy as np
import pytest

from numerics.decentralized.algorithms import Hyper, run
from numerics.decentralized.network import Network
from numerics.decentralized.problems import heterogeneous_problem
from numerics.decentralized.topology import make_graph


@pytest.fixture(scope="module")
def setting():
    return heterogeneous_problem("lsq", 12, dim=5, seed=2), make_graph("er", 12, p=0.5, seed=2)


def test_bred_is_exact_and_linear_while_dsgd_stalls(setting):
    problem, graph = setting
    network = Network(graph, aggregator="mean")
    bred = run("bred", problem, network, iterations=800)
    dsgd = run("dsgd", problem, network, iterations=800)
    assert bred[-1] < 1e-12 and dsgd[-1] > 1e-3
    assert bred[400] < 1e-4 * bred[100]  # geometric decrease between checkpoints
    assert abs(dsgd[-1] - dsgd[400]) < 1e-6 * dsgd[-1] + 1e-12  # stalled at its floor


def test_momentum_variant_is_exact_too(setting):
    problem, graph = setting
    assert run("bred-m", problem, Network(graph, aggregator="mean"), iterations=800)[-1] < 1e-12


def test_bred_beats_exact_diffusion_under_attack(setting):
    problem, graph = setting
    network = Network(graph, byzantine=frozenset({0, 5}), aggregator="trimmed", attack="alie")
    ed = run("ed", problem, network, iterations=400)[-50:].mean()
    bred = run("bred", problem, network, iterations=400, hyper=Hyper())[-50:].mean()
    assert bred < ed


def test_unknown_algorithm(setting):
    problem, graph = setting
    with pytest.raises(ValueError, match="unknown algorithm"):
        run("adam", problem, Network(graph), iterations=1)
