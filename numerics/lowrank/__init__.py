"""A^3 analytical low-rank compression of attention (QK, OV) and MLP components, and SVD baselines."""
