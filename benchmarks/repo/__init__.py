"""The benchmark harness for repository agents: SWE-bench instances, gold locations, metrics."""
