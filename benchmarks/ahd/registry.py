"""The AHD problems by name."""

from __future__ import annotations

from benchmarks.ahd.problem import Problem
from benchmarks.ahd.problems.bpp_online import BinPackingOnline
from benchmarks.ahd.problems.cvrp_construct import CvrpConstructive
from benchmarks.ahd.problems.kp_construct import KnapsackConstructive
from benchmarks.ahd.problems.tsp_construct import TspConstructive
from benchmarks.ahd.problems.tsp_gls import TspGuidedLocalSearch
from sandboxes.errors import UserError

PROBLEMS: dict[str, Problem] = {problem.name: problem for problem in (
    BinPackingOnline(), TspConstructive(), TspGuidedLocalSearch(), KnapsackConstructive(), CvrpConstructive())}


def get_problem(name: str) -> Problem:
    """The problem called ``name``; a UserError lists the known ones otherwise."""
    if name not in PROBLEMS:
        raise UserError(f"unknown AHD problem {name!r}; choose one of: {', '.join(PROBLEMS)}")
    return PROBLEMS[name]
