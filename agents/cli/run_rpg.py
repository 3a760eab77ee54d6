"""`agent run rpg`: encode a repository into an RPG (or update a saved one from git), then optionally
localise an issue in it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, Optional, TypedDict

import typer
from langgraph.graph import END, START, StateGraph

from benchmarks.report import Report
from sandboxes.errors import UserError
from sandboxes.settings import Config

from agents.cli.common import emit_report, with_run_options
from agents.cli.groups import run_app
from agents.rpg.encode import choose_lifter, encode_repository, is_git
from agents.rpg.localize_agent import AgentConfig, localize_with_model, offline_state
from agents.rpg.source import resolve_commit
from agents.runtime.config import load_config
from agents.runtime.graph import run_graph
from agents.runtime.launch import RunOptions, launch
from agents.runtime.models.base import ChatModel
from agents.runtime.registry import register_agent
from agents.runtime.run import Run
from memory.rpg import store
from tools.rpg.workspace import RPGWorkspace


class RunRPGConfig(Config):
    """One `agent run rpg` ([rpg] in agentkiln.toml)."""

    repo: str = "."
    """The repository (a git checkout, or any folder of Python code)."""
    commit: str | None = None
    """Encode this commit (git repositories; default HEAD). Plain folders are read from disk."""
    graph: str | None = None
    """Graph file (.json or .sqlite): updated incrementally from git when it exists, written afterwards."""
    issue: str | None = None
    """Issue text to localise once the graph is ready."""
    lifter: Literal["auto", "offline", "model"] = "auto"
    """Semantic lifting: the model when one is configured (auto), or the offline lifter."""


class RPGState(TypedDict, total=False):
    encoded: dict[str, Any]
    localized: dict[str, Any]


def encode(config: RunRPGConfig, model: ChatModel | None, out: Path) -> dict[str, Any]:
    """Build, or load and evolve, the graph; save it to ``out`` (and ``config.graph``)."""
    repo = Path(config.repo).resolve()
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
        workspace = RPGWorkspace(rpg, repo=repo) if rpg.commit else RPGWorkspace(rpg, root=repo)
        result = (localize_with_model(workspace, model, config.issue, AgentConfig()) if model
                  else offline_state(workspace, config.issue))
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


register_agent("rpg", execute)


@run_app.command("rpg")
@with_run_options
def run_rpg(repo: Annotated[str, typer.Option("--repo", help="Repository to encode.")] = ".",
            commit: Annotated[Optional[str], typer.Option("--commit", help="Commit to encode (default HEAD).")] = None,
            graph: Annotated[Optional[str], typer.Option("--graph", help="Graph file to update and save.")] = None,
            issue: Annotated[Optional[str], typer.Option("--issue", help="Issue text to localise.")] = None,
            issue_file: Annotated[Optional[Path], typer.Option("--issue-file", help="Read the issue from a file.")] = None,
            lifter: Annotated[Optional[str], typer.Option("--lifter", help="auto | offline | model")] = None,
            *, options: RunOptions, json_path: Optional[Path]) -> None:
    """Encode a repository into a Repository Planning Graph; localise an issue in it if given."""
    if issue_file:
        if not issue_file.is_file():
            raise UserError(f"no such issue file: {issue_file}")
        issue = issue_file.read_text()
    config = load_config(RunRPGConfig, "rpg", {"repo": repo, "commit": commit, "graph": graph, "issue": issue,
                                               "lifter": lifter})
    run, report = launch("rpg", config, options, execute)
    emit_report(report, json_path, run)
