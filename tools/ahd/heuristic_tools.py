"""Typed tools over ``benchmarks.ahd``: describe a problem, evaluate a heuristic in the sandbox."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from tools.base import Tool


class ProblemArgs(BaseModel):
    """Arguments of `ahd_describe_problem`."""

    problem: str = Field(description="AHD problem name, e.g. bpp_online, tsp_construct, kp_construct.")


class EvaluateHeuristicArgs(BaseModel):
    """Arguments of `ahd_evaluate`."""

    problem: str = Field(description="AHD problem name, e.g. bpp_online, tsp_construct, kp_construct.")
    code: str = Field(description="Python source defining the problem's heuristic function.")
    split: Literal["train", "test"] = Field("train", description="Instance split to score on.")


def describe_problem(args: ProblemArgs) -> dict[str, Any]:
    from benchmarks.ahd.registry import PROBLEMS, get_problem

    problem = get_problem(args.problem)
    return {"problem": problem.name, "signature": problem.signature, "description": problem.description,
            "baselines": problem.baselines, "known_problems": list(PROBLEMS)}


def evaluate_heuristic(args: EvaluateHeuristicArgs) -> dict[str, Any]:
    """Gap in percent to the reference (lower is better), per instance set, or the failure and its message."""
    from benchmarks.ahd.evaluator import Evaluator
    from benchmarks.ahd.registry import get_problem

    return Evaluator(get_problem(args.problem), args.split).evaluate(args.code).to_dict()


def make_ahd_tools() -> list[Tool]:
    return [
        Tool("ahd_describe_problem", "Describe an AHD problem: heuristic signature, description, baselines.",
             ProblemArgs, describe_problem, group="ahd", capabilities=("compute",)),
        Tool("ahd_evaluate", "Evaluate a heuristic on an AHD problem in the sandbox: mean gap to the reference "
             "in percent (lower is better), per instance set.", EvaluateHeuristicArgs, evaluate_heuristic,
             group="ahd", capabilities=("sandbox",)),
    ]
