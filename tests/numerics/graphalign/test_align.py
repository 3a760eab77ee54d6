import numpy as np
import torch

from numerics.graphalign.align import evaluate, hungarian_accuracy, laplacian_baseline, train
from numerics.graphalign.data import make_pairs


def test_hungarian_accuracy_counts_matches():
    scores = np.eye(4)[[1, 0, 2, 3]]
    assert hungarian_accuracy(scores, np.array([1, 0, 2, 3])) == 1.0
    assert hungarian_accuracy(scores, np.array([0, 1, 2, 3])) == 0.5


def test_laplacian_baseline_aligns_noise_free_graphs_better_than_noisy_ones():
    clean = np.mean([laplacian_baseline(p) for p in make_pairs(3, n=40, degree=6, noise=0.0, seed=4)])
    noisy = np.mean([laplacian_baseline(p) for p in make_pairs(3, n=40, degree=6, noise=0.3, seed=4)])
    assert clean > noisy


def test_training_beats_chance_by_far_at_low_noise():
    torch.set_num_threads(1)
    model = train("gin", noise=0.02, steps=60, n=40, degree=6)
    accuracy = evaluate(model, make_pairs(2, n=40, degree=6, noise=0.02, seed=9))
    assert accuracy > 0.5  # chance is 1/40
