"""EvoKernel: kernel drafting and refinement with a Q-value experience memory.

Kernel synthesis is treated as an MDP whose state is the task plus progress (best latency,
verification status) and whose action is kernel code. The model stays frozen; what learns is the
retrieval policy over ``memory.qmemory``: dense recall by similarity, then stage-specific Q-values
chosen epsilon-greedily. ``graph`` runs retrieve -> generate -> verify -> learn -> route for every
task in parallel; ``offline`` is the policy used without a model. Run it with ``agent run evokernel``.
"""
