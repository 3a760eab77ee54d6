"""The two text sources: a simulated "private" corpus of interpreter sessions and the fixture's public docstrings.

The private corpus is SIMULATED: short Python REPL transcripts (``>>> divmod(56, 6)`` then ``(9, 2)``) written
by a seeded grammar, each standing for one person's record. They are all prompts, numbers and brackets, unlike the
prose of the docstrings the fixture was trained on, which is the shift the dataset vector has to carry over.
"""

from __future__ import annotations

import numpy as np
import torch

from numerics.fixture.corpus import sample_windows, token_splits


def _line(rng: np.random.Generator) -> str:
    """One prompt line and the value the interpreter would print for it."""
    a, b = int(rng.integers(-20, 100)), int(rng.integers(1, 12))
    kind = int(rng.integers(6))
    expression, value = [(f"abs({a})", abs(a)), (f"divmod({a}, {b})", divmod(a, b)), (f"max({a}, {b})", max(a, b)),
                         (f"sorted([{a}, {b}, {a % 7}])", sorted([a, b, a % 7])), (f"{a} * {b}", a * b),
                         (f"round({a} / {b}, 2)", round(a / b, 2))][kind]
    return f">>> {expression}\n{value}\n"


def private_sessions(count: int, seed: int) -> list[str]:
    """``count`` simulated sessions of 3-5 lines, seeded; each session is one private example (one person)."""
    rng = np.random.default_rng(seed)
    return ["".join(_line(rng) for _ in range(int(rng.integers(3, 6)))) for _ in range(count)]


def encode_example(text: str, length: int) -> torch.Tensor:
    """Byte windows (windows, length) covering the text: the fewest evenly spaced ones, first and last at its ends
    (a text shorter than ``length`` is repeated to fill one window)."""
    data = text.encode("ascii")
    if len(data) <= length:
        return torch.tensor(list((data * (length // len(data) + 1))[:length])).view(1, length)
    count = -(-len(data) // length)
    starts = np.linspace(0, len(data) - length, count).round().astype(int)
    return torch.stack([torch.tensor(list(data[s:s + length])) for s in starts])


def public_windows(count: int, length: int, seed: int) -> torch.Tensor:
    """``count`` windows of the fixture's training docstrings (the public prior), (count, length)."""
    return sample_windows(token_splits()[0], count, length, seed)[:, :-1]
