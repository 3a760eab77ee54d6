"""The localisation agent: a LangGraph loop in which a model navigates the RPG and submits locations.

``think`` asks the model (with the navigation tools and ``submit_locations``), ``act`` runs the tool
calls it made, ``finish`` turns the submission into ranked locations. The first prompt lists the
offline localiser's function-level candidates with their files and line spans (as LocAgent's
prompts show entities), so the model starts where the evidence is. If the model never submits,
the offline ranking is used and the report says so.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, Field

from sandboxes.errors import UserError
from sandboxes.settings import Config
from sandboxes.telemetry import emit

from agents.rpg.localize_offline import POLICY, OfflineRanker, RankConfig, Ranking
from agents.runtime.models.base import ChatModel, ToolCall
from agents.runtime.models.serialize import assistant_message
from tools.base import Tool, render_result
from tools.rpg.navigation import rpg_tools
from tools.rpg.workspace import RPGWorkspace

SYSTEM_PROMPT = """You localise GitHub issues in a Python repository through its Repository Planning Graph.
Node ids look like 'path/to/file.py' or 'path/to/file.py:Class.method'. Use search_node to find
candidates, fetch_node to read their code, explore_rpg to follow callers, callees and base classes.
When you know where the fix belongs, call submit_locations once with the locations ranked from most
to least likely (file, entity id, and line range when you know it). Locations are functions or
methods where you can name them; test files are rarely where a fix goes."""


class Location(BaseModel):
    file: str = Field(description="Repository-relative path of the file.")
    entity: str = Field("", description="Node id 'path:Class.method' or 'path:function' ('' for the whole file).")
    start: int | None = Field(None, description="First line of the location.")
    end: int | None = Field(None, description="Last line of the location.")
    reason: str = Field("", description="Why this location is involved.")


class SubmitArgs(BaseModel):
    locations: list[Location] = Field(description="Locations ranked from most to least likely.", min_length=1)


class AgentConfig(Config):
    """Limits of the localisation agent."""

    max_steps: int = 12
    """Model turns before the agent stops and falls back to the offline ranking."""
    max_result_chars: int = 6000
    """Cap on each tool result shown to the model."""
    candidates: int = 10
    """How many of the offline ranking's function-level candidates the first prompt lists."""


class LocState(TypedDict, total=False):
    issue: str
    messages: list[dict[str, Any]]
    steps: int
    submitted: list[dict[str, Any]] | None
    locations: list[dict[str, Any]]
    modules: list[str]
    files: list[str]
    source: str


def _submit_tool() -> Tool:
    return Tool("submit_locations", "Finish: submit the ranked locations that need to change.", SubmitArgs,
                lambda args: args.model_dump(), capabilities=("compute",))


def build_localizer_graph(ranker: OfflineRanker, model: ChatModel, config: AgentConfig,
                          rank_config: RankConfig | None = None) -> StateGraph:
    """The think → act loop with a finish node; the state is plain JSON so it checkpoints."""
    workspace = ranker.workspace
    tools = {tool.name: tool for tool in [*rpg_tools(workspace), _submit_tool()]}
    schemas = [tool.openai_schema() for tool in tools.values()]

    def think(state: LocState) -> LocState:
        response = model.complete(state["messages"], tools=schemas)
        messages = state["messages"] + [assistant_message(response)]
        if not response.tool_calls:
            messages.append({"role": "user", "content": "Use the tools, and finish with submit_locations."})
        return {"messages": messages, "steps": state.get("steps", 0) + 1}

    def act(state: LocState) -> LocState:
        calls = state["messages"][-1].get("tool_calls", [])
        messages, submitted = list(state["messages"]), state.get("submitted")
        for raw in calls:
            call = ToolCall(raw["id"], raw["function"]["name"], json.loads(raw["function"]["arguments"] or "{}"))
            text, result = _run_tool(tools, call, config.max_result_chars)
            if call.name == "submit_locations" and result is not None:
                submitted = result["locations"]
            messages.append({"role": "tool", "tool_call_id": call.id, "content": text})
        return {"messages": messages, "submitted": submitted}

    def finish(state: LocState) -> LocState:
        if state.get("submitted"):
            return {"locations": _complete_locations(workspace, state["submitted"]), "source": f"llm: {model.name}"}
        ranking = ranker.rank(state["issue"], rank_config)
        return {"locations": _offline_locations(workspace, ranking), "modules": ranking.modules,
                "files": ranking.files, "source": f"{POLICY} (fallback: the model did not submit within {config.max_steps} steps)"}

    def after_think(state: LocState) -> str:
        if state["messages"][-1].get("role") == "assistant" and state["messages"][-1].get("tool_calls"):
            return "act"
        return "finish" if state.get("steps", 0) >= config.max_steps else "think"

    def after_act(state: LocState) -> str:
        return "finish" if state.get("submitted") or state.get("steps", 0) >= config.max_steps else "think"

    builder = StateGraph(LocState)
    for name, node in (("think", think), ("act", act), ("finish", finish)):
        builder.add_node(name, node)
    builder.add_edge(START, "think")
    builder.add_conditional_edges("think", after_think, ["act", "finish", "think"])
    builder.add_conditional_edges("act", after_act, ["finish", "think"])
    builder.add_edge("finish", END)
    return builder


def _run_tool(tools: dict[str, Tool], call: ToolCall, limit: int) -> tuple[str, Any]:
    tool = tools.get(call.name)
    if tool is None:
        return f"error: no tool named {call.name!r}; available: {', '.join(tools)}", None
    try:
        result = tool.invoke(call.arguments)
    except UserError as error:
        emit("tool.call", tool=call.name, arguments=call.arguments, error=str(error))
        return f"error: {error}", None
    emit("tool.call", tool=call.name, arguments=call.arguments, result_chars=len(str(result)))
    return render_result(result, limit), result


def _complete_locations(workspace: RPGWorkspace, submitted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Normalise entity ids against the graph and fill in missing line ranges."""
    completed = []
    for item in submitted:
        entity = item.get("entity") or ""
        matches = workspace.find(entity) if entity else []
        if matches:
            node = workspace.rpg.node(matches[0])
            entity = node.id
            item = {**item, "file": node.path, "start": item.get("start") or node.start, "end": item.get("end") or node.end}
        completed.append({**item, "entity": entity})
    return completed


def _offline_locations(workspace: RPGWorkspace, ranking: Ranking) -> list[dict[str, Any]]:
    """The ranked functions with their spans, then the ranked files that hold none of them."""
    rpg = workspace.rpg
    located = [{"file": rpg.node(e).path, "entity": e, "start": rpg.node(e).start, "end": rpg.node(e).end,
                "reason": "offline ranking"} for e in ranking.functions]
    covered = {item["file"] for item in located}
    return located + [{"file": f, "entity": "", "start": None, "end": None, "reason": "offline ranking"}
                      for f in ranking.files if f not in covered]


def candidate_lines(workspace: RPGWorkspace, ranking: Ranking, limit: int) -> str:
    """The function-level candidates as prompt lines: id, kind, file and line span."""
    lines = []
    for number, entity in enumerate(ranking.functions[:limit], 1):
        node = workspace.rpg.node(entity)
        lines.append(f"{number}. {entity} ({node.kind.value} in {node.path}, lines {node.start}-{node.end})")
    return "\n".join(lines)


def initial_state(issue: str, candidates: str = "") -> LocState:
    listed = (f"\n\nCandidates from the offline ranking (lexical match, issue pointers, graph walk), "
              f"most likely first:\n{candidates}") if candidates else ""
    return {"issue": issue, "steps": 0, "submitted": None,
            "messages": [{"role": "system", "content": SYSTEM_PROMPT},
                         {"role": "user", "content": f"Issue:\n{issue}{listed}\n\nFind the code that must change."}]}


def localize_with_model(ranker: OfflineRanker, model: ChatModel, issue: str, config: AgentConfig | None = None,
                        rank_config: RankConfig | None = None) -> LocState:
    """Run the agent once on its own in-memory checkpointer (for benchmarks); returns the final state.

    Its own checkpointer and thread keep it from inheriting the checkpointer of an enclosing graph,
    which would otherwise resume one instance's conversation inside the next.
    """
    config = config or AgentConfig()
    candidates = candidate_lines(ranker.workspace, ranker.rank(issue, rank_config), config.candidates)
    graph = build_localizer_graph(ranker, model, config, rank_config).compile(checkpointer=InMemorySaver())
    return graph.invoke(initial_state(issue, candidates), {"configurable": {"thread_id": uuid.uuid4().hex},
                                                           "recursion_limit": 4 * config.max_steps + 10})


def offline_state(ranker: OfflineRanker, issue: str, config: RankConfig | None = None) -> LocState:
    """The no-model policy's result in the same shape."""
    ranking = ranker.rank(issue, config)
    return {"issue": issue, "locations": _offline_locations(ranker.workspace, ranking), "modules": ranking.modules,
            "files": ranking.files, "source": POLICY}
