"""The kernel verifier: the judge of every kernel an agent or a user hands in.

Stages, in order, each with its own status in :class:`~benchmarks.kernels.verifier.result.KernelResult`:

- ``static_checks``: the allow-list of what the solution's Python may do (``static/``, a positive model of
  host code and kernel bodies) and the structural ``static_rules`` (``rejected``);
- ``prebuild`` and the target's build: native code compiled in the sandbox (``compile_error``), then judged
  by the compiler: inline assembly in the preprocessed source and undefined symbols off an allow-list
  (``sandboxes.targets.native_check``) are ``rejected``;
- ``eager``: KernelBench's baseline (the reference as ``ModelNew``) as the labelled set ``builtin:eager``;
- ``runner``: the trusted runner computes the reference, drives the untrusted worker, compares the
  outputs and keeps the clock (``incorrect``, ``crashed``, ``timeout``, ``correct``), and signs its verdict;
- ``harness``: the one entry point, :func:`~benchmarks.kernels.verifier.harness.evaluate`.
"""
