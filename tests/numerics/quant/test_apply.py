import copy

import pytest

from numerics.fixture.corpus import calibration_tokens, validation_windows
from numerics.fixture.evaluate import load_fixture, perplexity
from numerics.quant.apply import quantise_model
from numerics.quant.twinquant import TwinQuantSettings


def test_twinquant_beats_the_random_rotation_on_fixture_perplexity_and_layer_error():
    model, calibration, windows = load_fixture(), calibration_tokens(8), validation_windows(limit=60)
    settings = TwinQuantSettings(group=128, steps=2)
    results = {}
    for method in ("twinquant", "rotation_rtn", "rtn"):
        quantised = copy.deepcopy(model)
        rows = quantise_model(quantised, method, calibration, settings)
        results[method] = (perplexity(quantised, windows), sum(r["output_error"] for r in rows))
    fp = perplexity(model, windows)
    assert fp < results["twinquant"][0] < results["rotation_rtn"][0]
    assert results["twinquant"][1] < results["rotation_rtn"][1]
    assert results["rtn"][0] > fp


def test_unknown_method_is_rejected():
    with pytest.raises(ValueError, match="unknown quantisation method"):
        quantise_model(load_fixture(), "gptq", calibration_tokens(2))
