"""Genetic programming over expression trees of a heuristic's inputs: the PathWise offline policy's search.

``tree``: trees, their text and numpy form; ``grammars``: each problem's terminals and how a tree becomes
a heuristic with the problem's signature; ``variation``: random trees, crossover, mutations and bloat
limits; ``advice``: the offline critics' advice and how the policy and world model read it.
"""
