import copy

import pytest
import torch

from numerics.fixture.corpus import calibration_tokens
from numerics.fixture.evaluate import load_fixture
from numerics.sparse.pruning import magnitude_mask, prune_model, wanda_mask


def test_magnitude_mask_keeps_the_largest_entries():
    weight = torch.tensor([[1.0, -4.0], [0.5, 3.0]])
    assert magnitude_mask(weight, 0.5).tolist() == [[False, True], [False, True]]


def test_wanda_weighs_by_input_norm_per_row():
    weight = torch.tensor([[1.0, 2.0], [3.0, 1.0]])
    mask = wanda_mask(weight, torch.tensor([10.0, 1.0]), 0.5)
    assert mask.tolist() == [[True, False], [True, False]]


def test_wanda_beats_magnitude_on_the_fixture_layers():
    model, calibration = load_fixture(), calibration_tokens(8)
    errors = {}
    for method in ("magnitude", "wanda"):
        rows = prune_model(copy.deepcopy(model), 0.5, method, calibration)
        assert all(row["sparsity"] == pytest.approx(0.5, abs=0.01) for row in rows)
        errors[method] = sum(row["output_error"] for row in rows)
    assert errors["wanda"] < errors["magnitude"]


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError, match="sparsity"):
        prune_model(load_fixture(), 1.0, "wanda", calibration_tokens(2))
    with pytest.raises(ValueError, match="unknown pruning method"):
        prune_model(load_fixture(), 0.5, "random", calibration_tokens(2))
