"""Kernel tools (group "kernels"): list tasks, check, benchmark and profile solutions on cpu, gpu or npu."""

from tools.kernels.kernel_tools import make_kernel_tools

__all__ = ["make_kernel_tools"]
