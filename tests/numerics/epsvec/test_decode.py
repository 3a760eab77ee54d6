import pytest
import torch

from numerics.epsvec.decode import residual, steered_sample
from numerics.fixture.evaluate import load_fixture


@pytest.fixture(scope="module")
def model():
    return load_fixture()


def _hooked_sample(model, prompt, length, vector, layer, generator):
    """Reference: the model's own full forward at every step, the vector added by a pre-hook."""
    site = model.ln_f if layer == len(model.blocks) else model.blocks[layer]
    handle = site.register_forward_pre_hook(lambda module, args: (args[0] + vector,))
    try:
        tokens = prompt
        with torch.no_grad():
            while tokens.shape[1] < length:
                probs = model(tokens)[:, -1].softmax(-1)
                tokens = torch.cat([tokens, torch.multinomial(probs, 1, generator=generator)], dim=1)
    finally:
        handle.remove()
    return tokens


@pytest.mark.parametrize("layer", [0, 1, 2])
def test_cached_decoding_samples_what_the_full_forward_with_the_vector_samples(model, layer):
    vector = torch.randn(model.config.d_model, generator=torch.Generator().manual_seed(layer))
    prompt = torch.tensor([[10, 84], [62, 62]])
    ours = steered_sample(model, prompt, 12, vector, layer, torch.Generator().manual_seed(7))
    reference = _hooked_sample(model, prompt, 12, vector, layer, torch.Generator().manual_seed(7))
    assert torch.equal(ours, reference)


def test_one_vector_per_row_and_the_residual_stream(model):
    tokens = torch.tensor([[10, 62, 62, 62]])
    assert torch.allclose(residual(model, tokens, 0), model.tok(tokens) + model.pos.weight[:4])
    vector = residual(model, torch.tensor([[49] * 8]), 1)[0].mean(0)
    prompt = torch.tensor([[10], [10]])
    shared = steered_sample(model, prompt, 9, vector, 1, torch.Generator().manual_seed(0))
    per_row = steered_sample(model, prompt, 9, torch.stack([vector, vector]), 1, torch.Generator().manual_seed(0))
    assert shared.shape == (2, 9) and torch.equal(shared, per_row) and torch.equal(shared[:, 0], prompt[:, 0])
    with pytest.raises(ValueError, match="layer"):
        residual(model, tokens, 3)
    with pytest.raises(ValueError, match="context"):
        steered_sample(model, tokens, 65, vector, 1, torch.Generator())
