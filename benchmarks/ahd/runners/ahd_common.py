"""Shared pieces of the sandbox-side runners: the errors they raise and return-value checks."""

import numpy as np


class InvalidReturn(Exception):
    """The heuristic returned something of the wrong type, shape or value (NaN, out of range)."""


class IllegalMove(Exception):
    """The heuristic chose a move the problem forbids (revisited node, overfull vehicle)."""


def distance_matrix(coords):
    """Euclidean distances between all rows of ``coords``, read-only so a heuristic cannot alter them."""
    matrix = np.sqrt(((coords[:, None, :] - coords[None, :, :]) ** 2).sum(-1))
    matrix.setflags(write=False)
    return matrix


def as_scores(raw, length, what):
    """``raw`` as a float vector of ``length`` entries, else InvalidReturn."""
    if type(raw) is np.ndarray and raw.dtype == np.float64 and raw.shape == (length,):
        return raw
    try:
        scores = np.asarray(raw, dtype=float)
    except (TypeError, ValueError) as error:
        raise InvalidReturn(f"{what} returned {type(raw).__name__}, not numbers") from error
    if scores.shape != (length,):
        raise InvalidReturn(f"{what} returned shape {scores.shape}, expected ({length},)")
    return scores


def as_node(raw, what):
    """``raw`` as a plain int node id, else InvalidReturn."""
    if isinstance(raw, (bool, np.bool_)) or not isinstance(raw, (int, np.integer, float, np.floating)):
        raise InvalidReturn(f"{what} returned {type(raw).__name__}, expected an int")
    if raw != raw or int(raw) != raw:
        raise InvalidReturn(f"{what} returned {raw!r}, expected an int")
    return int(raw)
