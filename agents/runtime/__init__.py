"""The shared runtime: models, run directories, events, checkpoints, progress."""
