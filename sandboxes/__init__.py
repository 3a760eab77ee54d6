"""Isolation backends (docker, local) and kernel targets (cpu, gpu, npu); the bottom layer."""
