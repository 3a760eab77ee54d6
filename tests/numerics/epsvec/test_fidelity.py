import numpy as np
import pytest

from numerics.epsvec.corpus import private_sessions, public_windows
from numerics.epsvec.fidelity import BigramClassifier, bigram_counts, js_divergence


def test_bigram_counts_and_the_divergence_bounds():
    counts = bigram_counts([b"abab", b"ba"])
    assert counts[ord("a"), ord("b")] == 2 and counts[ord("b"), ord("a")] == 2 and counts.sum() == 4
    assert js_divergence(counts, 3 * counts) == pytest.approx(0.0)
    assert js_divergence(bigram_counts([b"aa"]), bigram_counts([b"bb"])) == pytest.approx(1.0)


def test_the_classifier_tells_sessions_from_docstrings_it_was_not_fitted_on():
    public = [bytes(row.tolist()) for row in public_windows(80, 64, seed=5)]
    judge = BigramClassifier.fit([s.encode() for s in private_sessions(80, seed=1)], public[:40])
    assert judge.private_share([s.encode()[:31] for s in private_sessions(40, seed=2)]) > 0.95
    assert judge.private_share([row[:31] for row in public[40:]]) < 0.05
    assert np.all(np.isfinite(judge.scores([b"\x00\xff"])))
