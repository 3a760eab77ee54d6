"""Sandbox-side loop for constructive 0/1 knapsack: ``select_next_item`` picks among items that fit."""

import numpy as np

from ahd_common import IllegalMove, as_node


def solve_all(select_next_item, data):
    return [fill(select_next_item, weights, values, float(capacity))
            for weights, values, capacity in zip(data["weights"], data["values"], data["capacity"])]


def fill(select_next_item, weights, values, capacity):
    remaining = capacity
    available = np.ones(len(weights), dtype=bool)
    chosen = []
    while True:
        candidates = np.flatnonzero(available & (weights <= remaining))
        if len(candidates) == 0:
            return chosen
        raw = select_next_item(remaining, weights[candidates].copy(), values[candidates].copy())
        index = as_node(raw, "select_next_item")
        if not 0 <= index < len(candidates):
            raise IllegalMove(f"select_next_item returned index {index} of {len(candidates)} candidates")
        item = int(candidates[index])
        available[item] = False
        remaining -= float(weights[item])
        chosen.append(item)
