"""Byzantine-robust decentralised optimisation: BRED, BRED-M and their baselines."""
