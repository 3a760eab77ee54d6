import copy

import pytest

from numerics.fixture.corpus import calibration_tokens, validation_windows
from numerics.fixture.evaluate import load_fixture, perplexity
from numerics.lowrank.apply import compress_lowrank


def test_a3_beats_both_baselines_on_fixture_perplexity_at_equal_budget():
    model, calibration, windows = load_fixture(), calibration_tokens(16), validation_windows(limit=60)
    results = {}
    for method in ("a3", "svd", "whitened_svd"):
        compressed = copy.deepcopy(model)
        rows = compress_lowrank(compressed, 0.5, method, calibration)
        results[method] = (perplexity(compressed, windows), rows)
    assert results["a3"][0] < results["whitened_svd"][0] < results["svd"][0]
    for component in ("qk", "ov", "mlp"):
        assert results["a3"][1][0][component] < results["whitened_svd"][1][0][component]


def test_a3_really_shrinks_the_layers_without_extra_matmuls():
    model = load_fixture()
    compress_lowrank(model, 0.5, "a3", calibration_tokens(4))
    layer = model.config.layers[0]
    assert (layer.qk_dim, layer.v_dim, layer.mlp_dim) == (16, 16, 256)
    assert model.blocks[0].q.weight.shape == (64, 128) and model.blocks[0].down.weight.shape == (128, 256)


def test_bad_ratio_and_method_are_rejected():
    with pytest.raises(ValueError, match="ratio"):
        compress_lowrank(load_fixture(), 0.0, "a3", calibration_tokens(2))
    with pytest.raises(ValueError, match="unknown low-rank method"):
        compress_lowrank(load_fixture(), 0.5, "pca", calibration_tokens(2))
