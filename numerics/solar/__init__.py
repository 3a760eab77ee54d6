"""SOLAR-style plateau-gated, potential-based reward shaping for sparse-reward offline multi-agent RL, on a
small cooperative grid game learned through a tabular world model."""
