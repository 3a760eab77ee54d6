"""The kernel verifier: the judge of every kernel an agent or a user hands in.

Stages, in order, each with its own status in :class:`~benchmarks.kernels.verifier.result.KernelResult`:

- ``static_checks`` / ``static_rules``: what the solution's source may do (``rejected``);
- ``prebuild`` and the target's build: native code compiled in the sandbox (``compile_error``);
- ``runner``: the trusted runner computes the reference, drives the untrusted worker, compares the
  outputs and keeps the clock (``incorrect``, ``crashed``, ``timeout``, ``correct``), and signs its verdict;
- ``harness``: the one entry point, :func:`~benchmarks.kernels.verifier.harness.evaluate`.
"""
