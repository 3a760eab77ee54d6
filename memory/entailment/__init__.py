"""The entailment graph: how each heuristic was derived from its parents, persisted."""

from memory.entailment.graph import EntailmentGraph, HeuristicNode

__all__ = ["EntailmentGraph", "HeuristicNode"]
