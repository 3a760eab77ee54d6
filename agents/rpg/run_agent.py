"""The `rpg` agent: encode a repository into an RPG (or update a saved one from git), then optionally
localise an issue in it, as a two-node checkpointed graph."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from benchmarks.report import Report
from memory.rpg import store
from sandboxes.errors import UserError
from tools.rpg.workspace import RPGWorkspace

from agents.rpg.config import RunRPGConfig
from agents.rpg.encode import choose_lifter, encode_repository, is_git
from agents.rpg.localize_agent import AgentConfig, localize_with_model, offline_state
from agents.rpg.localize_offline import OfflineRanker
from agents.rpg.source import resolve_commit
from agents.runtime.graph import run_graph
from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run


class RPGState(TypedDict, total=False):
    encoded: dict[str, Any]
    localized: dict[str, Any]


def encode(config: RunRPGConfig, model: ChatModel | None, out: Path) -> dict[str, Any]:
    """Build, or load and evolve, the graph; save it to ``out`` (and ``config.graph``)."""
    repo = Path(config.repo).resolve()
    if config.commit and not is_git(repo):
        raise UserError(f"--commit {config.commit} needs a git repository; {repo} is a plain folder (leave --commit "
                        "out to encode its files as they are)")
    commit = resolve_commit(repo, config.commit or "HEAD") if is_git(repo) else None
    encoded = encode_repository(repo, commit=commit, graph=config.graph,
                                lifter=choose_lifter(config.lifter, model, repo, commit))
    store.save(encoded.rpg, out)
    return {"graph_file": str(out), "mode": encoded.mode, "lifter": encoded.lifter, **encoded.stats.summary(),
            "skipped_files": [[s.path, s.reason] for s in encoded.stats.skipped], **encoded.rpg.stats()}


def execute(run: Run, model: ChatModel | None) -> Report:
    config = RunRPGConfig(**run.config)
    repo = Path(config.repo).resolve()

    def encode_node(state: RPGState) -> RPGState:
        return {"encoded": encode(config, model, run.artifacts / "rpg.sqlite")}

    def localize_node(state: RPGState) -> RPGState:
        if not config.issue:
            return {"localized": {}}
        rpg = store.load(state["encoded"]["graph_file"])
        ranker = OfflineRanker(RPGWorkspace(rpg, repo=repo) if rpg.commit else RPGWorkspace(rpg, root=repo))
        result = (localize_with_model(ranker, model, config.issue, AgentConfig()) if model
                  else offline_state(ranker, config.issue))
        return {"localized": {"locations": result["locations"][:10], "source": result["source"]}}

    builder = StateGraph(RPGState)
    builder.add_node("encode", encode_node)
    builder.add_node("localize", localize_node)
    builder.add_edge(START, "encode")
    builder.add_edge("encode", "localize")
    builder.add_edge("localize", END)
    state = run_graph(builder, run, {})
    return _report(run, state)


def _report(run: Run, state: RPGState) -> Report:
    encoded, localized = dict(state["encoded"]), state.get("localized") or {}
    skipped = encoded.pop("skipped_files")
    rows = [{"kind": "location", "rank": i + 1, "file": loc["file"], "entity": loc.get("entity") or "",
             "lines": f"{loc.get('start')}-{loc.get('end')}" if loc.get("start") else "", "reason": loc.get("reason", "")}
            for i, loc in enumerate(localized.get("locations", []))]
    rows += [{"kind": "skipped", "file": path, "reason": reason} for path, reason in skipped]
    summary = {**encoded, "skipped": len(skipped)}
    if localized:
        summary["policy"] = localized["source"]
    return Report(summary={**summary, **run.totals.as_dict()}, rows=rows, title=f"rpg run {run.id}")
