"""The compression agent: chain prune / low-rank / quantise steps on a TinyLM, one checkpointed node per step."""
