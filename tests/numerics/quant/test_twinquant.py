import torch

from numerics.quant.baselines import rotation_rtn, rtn, svd_rtn
from numerics.quant.compare import heavy_tailed_layer
from numerics.quant.twinquant import TwinQuantSettings, twinquant, twinquant_bits


def output_error(weight, approx, inputs):
    return ((inputs @ (weight - approx).T).norm() / (inputs @ weight.T).norm()).item()


def test_learned_transforms_beat_the_random_rotation_on_a_heavy_tailed_layer():
    torch.manual_seed(0)
    weight, inputs = heavy_tailed_layer(64)
    settings = TwinQuantSettings(rank=4, group=64, steps=25)
    fit = twinquant(weight, inputs, settings)
    errors = {"twinquant": output_error(weight, fit.weight, inputs),
              "rotation_rtn": output_error(weight, rotation_rtn(weight, 4, 64), inputs),
              "svd_rtn": output_error(weight, svd_rtn(weight, 4, 4, 64), inputs),
              "rtn": output_error(weight, rtn(weight, 4, 64), inputs)}
    assert errors["twinquant"] < errors["rotation_rtn"] < errors["rtn"]
    assert errors["twinquant"] <= errors["svd_rtn"]
    assert min(fit.losses) < fit.losses[0]  # the STE optimisation improves on its start
    eye = torch.eye(64, dtype=torch.float64)
    assert (fit.rotation.T @ fit.rotation - eye).abs().max() < 1e-10
    assert (fit.transform @ fit.transform_inverse - eye).abs().max() < 1e-8
    assert torch.linalg.matrix_rank(fit.low_rank) <= 4
    assert 5.0 < twinquant_bits((64, 64), settings) < 7.0
