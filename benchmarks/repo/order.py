"""The order in which the harness visits one repository's instances: a short path through their base commits.

A localiser that keeps one graph per repository pays, at each instance, for the Python files that differ
from the previous instance's commit. Commit time is a poor guide to that (release branches and backports
sit next to each other in time yet far apart in content), so the order is a nearest-neighbour chain over
the number of differing Python files: started from each commit in turn, it keeps the chain with the
fewest files changed in all, ties going to the start earliest in commit time.
"""

from __future__ import annotations

from typing import Iterable

Tree = frozenset[tuple[str, str]]
"""A commit's Python files as ``(path, blob id)`` pairs."""


def step_size(first: Tree, second: Tree) -> int:
    """Python files added, deleted or modified between two trees."""
    return len({path for path, _ in first ^ second})


def distances(trees: dict[str, Tree]) -> dict[tuple[str, str], int]:
    """Step sizes between every two commits (both directions)."""
    commits = list(trees)
    table = {}
    for index, first in enumerate(commits):
        for second in commits[index + 1:]:
            table[first, second] = table[second, first] = step_size(trees[first], trees[second])
    return table


def _chain_from(start: str, commits: list[str], table: dict[tuple[str, str], int]) -> tuple[int, list[str]]:
    """Greedy chain from ``start``: always the nearest commit not yet visited (ties: earlier in ``commits``)."""
    chain, left, total = [start], [c for c in commits if c != start], 0
    while left:
        step, nearest = min((table[chain[-1], c], position) for position, c in enumerate(left))
        total += step
        chain.append(left.pop(nearest))
    return total, chain


def nearest_chain(trees: dict[str, Tree], by_time: list[str]) -> list[str]:
    """The commits of ``by_time`` (oldest first, each with a tree) in a short visiting order."""
    if len(by_time) <= 2:
        return list(by_time)
    table = distances({commit: trees[commit] for commit in by_time})
    best = min((_chain_from(start, by_time, table) + (position,) for position, start in enumerate(by_time)),
               key=lambda found: (found[0], found[2]))
    return best[1]


def chain_steps(trees: dict[str, Tree], chain: Iterable[str]) -> list[int]:
    """Files changed at each move along ``chain`` (one fewer than its commits)."""
    commits = list(chain)
    return [step_size(trees[a], trees[b]) for a, b in zip(commits, commits[1:])]
