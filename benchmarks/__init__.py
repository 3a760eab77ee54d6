"""Task suites, instance generators, scorers and harnesses. Never imports agents."""
