"""Sandbox-side loop for online bin packing: one ``priority`` call per item.

Bins are kept as a prefix of opened bins plus one empty bin that stands for every unopened bin
(all empty bins are identical, so for any per-bin priority the first empty bin is the one chosen).
"""

import numpy as np

from ahd_common import InvalidReturn, as_scores


def solve_all(priority, data):
    capacity = float(data["capacity"])
    return [pack(priority, items.astype(float), capacity) for items in data["items"]]


def pack(priority, items, capacity):
    bins = np.full(len(items) + 1, capacity)
    assignment = np.empty(len(items), dtype=np.int64)
    n_open = 0
    for index, item in enumerate(items.tolist()):  # plain floats and array methods: the loop is the cost
        valid = (bins[: n_open + 1] >= item).nonzero()[0]
        scores = as_scores(priority(item, bins[valid]), len(valid), "priority")
        choice = int(scores.argmax())
        if scores[choice] != scores[choice]:  # argmax lands on the first NaN when there is one
            raise InvalidReturn("priority returned NaN")
        target = valid[choice]
        bins[target] -= item
        assignment[index] = target
        n_open += int(target == n_open)
    return assignment.tolist()
