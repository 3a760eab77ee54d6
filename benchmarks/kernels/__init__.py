"""Kernel benchmark harness: KernelBench-format tasks, a hardened verifier, cpu/gpu/npu targets."""
