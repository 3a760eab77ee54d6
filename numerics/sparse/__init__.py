"""MACKO sparse storage (fp16 values, 4-bit column gaps), its SpMV reference, and pruning."""
