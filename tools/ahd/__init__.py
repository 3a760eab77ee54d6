"""Heuristic-evaluation tools over the AHD problems (group "ahd")."""

from tools.ahd.heuristic_tools import make_ahd_tools

__all__ = ["make_ahd_tools"]
