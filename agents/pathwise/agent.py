"""`execute(run, model)` for the pathwise agent: new and resumed runs alike go through run_graph."""

from __future__ import annotations

from agents.pathwise import baselines, search
from agents.pathwise.context import PathWiseConfig, SearchContext
from agents.pathwise.offline import OfflineRoles
from agents.pathwise.outputs import finish
from agents.pathwise.roles import LLMRoles
from agents.runtime.graph import run_graph
from agents.runtime.models.base import ChatModel
from agents.runtime.progress import Progress
from benchmarks.report import Report

AGENT = "pathwise"


def execute(run, model: ChatModel | None, sandbox=None) -> Report:
    """Run (or continue) the search of ``run`` and write its outputs."""
    config = PathWiseConfig(**run.config)
    roles = LLMRoles(model) if model is not None else OfflineRoles()
    ctx = SearchContext(config, roles, run.dir, sandbox=sandbox)
    try:
        builder = search.build(ctx) if config.method == "pathwise" else baselines.build(ctx, config.method)
        with Progress(f"{config.method} {config.problem} evaluations", total=config.budget) as progress:
            ctx.progress, ctx.totals = progress, run.totals
            state = run_graph(builder, run, {})
        return finish(ctx, run, state, roles.name)
    finally:
        ctx.close()

