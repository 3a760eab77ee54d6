"""Replicable RL on random low-horizon tabular MDPs: backward induction whose every stage is answered by replicable
statistical queries (randomised rounding with shared offsets), a naive replicable model-estimation baseline, and the
measurements of replication rate, epsilon-optimality and samples needed against the number of states."""
