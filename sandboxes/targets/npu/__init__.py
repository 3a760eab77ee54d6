"""The simulated NPU target: an Ascend-C-like kernel language in Python, a functional and
cycle-approximate simulator of an Ascend 910B-like chip, template kernels and the eager baseline.

Every timing number this package produces is simulated, and labelled so.
"""
