"""Byzantine messages, computed by an omniscient attacker from the honest messages of the round."""

from __future__ import annotations

import numpy as np


def byzantine_messages(attack: str, honest: np.ndarray, count: int, rng: np.random.Generator,
                       scale: float) -> np.ndarray:
    """``count`` messages for ``sign_flip``, ``alie`` (a little is enough) or ``gaussian``."""
    centre = honest.mean(axis=0)
    if attack == "sign_flip":
        return np.tile(-scale * centre, (count, 1))
    if attack == "alie":
        return np.tile(centre - scale * honest.std(axis=0), (count, 1))
    if attack == "gaussian":
        return centre + scale * rng.normal(size=(count, honest.shape[1]))
    raise ValueError(f"unknown attack {attack!r}; use sign_flip, alie or gaussian")


DEFAULT_SCALE = {"sign_flip": 2.0, "alie": 1.0, "gaussian": 10.0}
