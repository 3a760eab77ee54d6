"""Typed tools: the only way an agent touches the world."""
