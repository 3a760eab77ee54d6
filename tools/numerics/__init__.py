"""Typed tools over the numerics library (group "numerics")."""
