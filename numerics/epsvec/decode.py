"""The fixture TinyLM's residual stream: read it at a layer, and sample with a vector added to it.

Layer ``l`` is the residual stream entering block ``l`` (``0`` is the embedding; ``len(blocks)`` is the stream
entering the final norm). Decoding keeps each block's keys and values, so a step costs one position, not the
whole prefix; the vector is added at every position of the layer, exactly as adding it to the stream would.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from numerics.fixture.model import Block, TinyLM


def _check_layer(model: TinyLM, layer: int) -> None:
    if not 0 <= layer <= len(model.blocks):
        raise ValueError(f"layer must be 0..{len(model.blocks)}, got {layer}")


@torch.no_grad()
def residual(model: TinyLM, tokens: torch.Tensor, layer: int) -> torch.Tensor:
    """The residual stream (batch, length, d_model) entering ``layer`` for ``tokens`` (batch, length)."""
    _check_layer(model, layer)
    x = model.tok(tokens) + model.pos(torch.arange(tokens.shape[1]))
    for block in model.blocks[:layer]:
        x = block(x)
    return x


def _step(block: Block, x: torch.Tensor, cache: list[torch.Tensor]) -> torch.Tensor:
    """One position (batch, 1, d) through ``block``, appending its keys and values to ``cache`` [k, v]."""
    a = block.ln1(x)
    q, k, v = block._heads(block.q(a)), block._heads(block.k(a)), block._heads(block.v(a))
    if cache:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    cache[:] = [k, v]
    probs = ((q @ k.transpose(-1, -2)) * block.scale).softmax(-1)
    x = x + block.o((probs @ v).transpose(1, 2).reshape(x.shape[0], 1, -1))
    return x + block.down(F.gelu(block.up(block.ln2(x))))


def _logits(model: TinyLM, token: torch.Tensor, position: int, shift: torch.Tensor, layer: int,
            caches: list[list[torch.Tensor]]) -> torch.Tensor:
    """Next-token logits (batch, vocab) after feeding ``token`` (batch,) at ``position``."""
    x = (model.tok(token) + model.pos.weight[position])[:, None, :]
    for index, block in enumerate(model.blocks):
        x = _step(block, x + shift if index == layer else x, caches[index])
    x = x + shift if layer == len(model.blocks) else x
    return (model.ln_f(x) @ model.tok.weight.T)[:, 0]


@torch.no_grad()
def steered_sample(model: TinyLM, prompt: torch.Tensor, length: int, vectors: torch.Tensor, layer: int,
                   generator: torch.Generator, temperature: float = 1.0) -> torch.Tensor:
    """Continue each prompt row (batch, p) to ``length`` tokens by ancestral sampling, with ``vectors``
    ((d_model,) shared, or (batch, d_model) one per row) added to the residual stream at ``layer``."""
    _check_layer(model, layer)
    if length > model.config.context:
        raise ValueError(f"length {length} exceeds the model's context {model.config.context}")
    shift = (vectors if vectors.dim() == 2 else vectors.expand(len(prompt), -1))[:, None, :].float()
    caches: list[list[torch.Tensor]] = [[] for _ in model.blocks]
    tokens = prompt
    for position in range(prompt.shape[1]):
        logits = _logits(model, prompt[:, position], position, shift, layer, caches)
    while tokens.shape[1] < length:
        probs = (logits / temperature).softmax(-1)
        chosen = torch.multinomial(probs, 1, generator=generator)
        tokens = torch.cat([tokens, chosen], dim=1)
        if tokens.shape[1] < length:
            logits = _logits(model, chosen[:, 0], tokens.shape[1] - 1, shift, layer, caches)
    return tokens
