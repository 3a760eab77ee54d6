"""Numeric and ML methods as plain libraries. Depends on nothing else in agentkiln."""
