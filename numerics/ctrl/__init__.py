"""Instance-dependent continuous-time RL on a noisy 1-D linear system: MLE of the state's density, measured on a
randomised or a fixed schedule, and certainty-equivalent control."""
