"""TwinQuant (low-rank + 4-bit residual with learned transforms) and the RTN / SVD / rotation baselines."""
