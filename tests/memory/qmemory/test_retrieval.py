import numpy as np
import pytest

from memory.qmemory.config import QMemoryConfig
from memory.qmemory.retrieval import Candidate, blended, epsilon_greedy, select, zscore

QS = [0.9, 0.5, 0.1, -0.2, 0.0]


def candidates(sims=None):
    sims = sims or [0.5] * len(QS)
    return [Candidate(i + 1, s, q) for i, (s, q) in enumerate(zip(sims, QS))]


def test_epsilon_zero_is_greedy_by_q():
    chosen = epsilon_greedy(candidates(), 3, 0.0, np.random.default_rng(0))
    assert [c.id for c in chosen] == [1, 2, 3]


def test_epsilon_greedy_with_a_fixed_seed_explores_exactly_these_slots():
    # seed 0 draws 0.637 (>= 0.5: greedy -> id 1), 0.270 (< 0.5: explore, integers(4) = 1 of [2, 3, 5, 4]
    # -> id 3), 0.0165 (< 0.5: explore, integers(3) = 0 of [2, 5, 4] -> id 2)
    chosen = epsilon_greedy(candidates(), 3, 0.5, np.random.default_rng(0))
    assert [c.id for c in chosen] == [1, 3, 2]


def test_epsilon_greedy_picks_the_best_with_probability_one_minus_eps_plus_eps_over_k():
    rng = np.random.default_rng(7)
    hits = sum(epsilon_greedy(candidates(), 1, 0.1, rng)[0].id == 1 for _ in range(10000))
    assert hits == 9179  # expectation 0.9 + 0.1 / 5 = 0.92


def test_ties_in_q_go_to_the_more_similar_candidate():
    items = [Candidate(1, 0.2, 0.0), Candidate(2, 0.9, 0.0), Candidate(3, 0.5, 0.0)]
    assert [c.id for c in epsilon_greedy(items, 2, 0.0, np.random.default_rng(0))] == [2, 3]


def test_blended_score_is_zscored_similarity_plus_clipped_zscored_q():
    items = [Candidate(1, 0.9, -1.0), Candidate(2, 0.1, 1.0), Candidate(3, 0.5, 0.0), Candidate(4, 0.5, 0.0)]
    # z(sim) = [1.633, -1.633, 0, 0]; z(q) = [-1.414, 1.414, 0, 0]
    assert [c.id for c in blended(items, 4, 1.0, 2.0)] == [1, 3, 4, 2]
    # a heavier Q weight lets the high-Q candidate win despite low similarity
    assert [c.id for c in blended(items, 1, 2.0, 2.0)] == [2]
    # clipping bounds the Q term: weight 2 with clip 0.5 caps it at 1.0 < 1.633
    assert [c.id for c in blended(items, 1, 2.0, 0.5)] == [1]


def test_zscore_of_constant_values_is_zero():
    assert zscore(np.array([3.0, 3.0])).tolist() == [0.0, 0.0]
    assert zscore(np.array([1.0, 3.0])).tolist() == pytest.approx([-1.0, 1.0])


def test_similarity_selection_ignores_q():
    config = QMemoryConfig(selection="similarity")
    chosen = select(candidates([0.1, 0.2, 0.9, 0.8, 0.3]), 2, config, np.random.default_rng(0))
    assert [c.id for c in chosen] == [3, 4]
