"""EvoKernel: kernel drafting and refinement with a Q-value experience memory."""
