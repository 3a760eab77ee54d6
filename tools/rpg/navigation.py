"""The RPG navigation tools: ``search_node``, ``fetch_node`` and ``explore_rpg``.

Each is a typed :class:`tools.base.Tool` over an :class:`RPGWorkspace`, so any agent can call it and
it exports as an OpenAI function schema or a LangChain tool.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from memory.rpg.graph import EdgeKind, Node, NodeKind
from tools.base import Tool
from tools.rpg.workspace import RPGWorkspace, is_support_path

NodeKindName = Literal["repository", "area", "category", "subcategory", "file", "class", "function", "method"]
EdgeKindName = Literal["contains", "imports", "invokes", "inherits"]
MAX_NAMES = 50
"""The most names one call may ask about: each is looked up in the whole graph, and a client is not a model."""


class SearchArgs(BaseModel):
    query: str = Field(description="Keywords, an identifier, or a behaviour phrase such as 'apply discount'.")
    mode: Literal["code", "feature", "both"] = Field("both", description="BM25 over code chunks, fuzzy over "
                                                     "lifted features, or both combined.")
    scopes: list[str] = Field(default_factory=list, max_length=MAX_NAMES, description="Only nodes under these node ids or path "
                              "prefixes (e.g. 'area:shop', 'shop/models.py').")
    kinds: list[NodeKindName] = Field(default_factory=list, description="Only these node kinds.")
    top_k: int = Field(10, ge=1, le=100, description="How many results.")
    include_tests: bool = Field(False, description="Also return test code and the top-level docs, "
                                "examples and benchmarks folders (left out by default: fixes rarely go there).")


class FetchArgs(BaseModel):
    names: list[str] = Field(max_length=MAX_NAMES, description="Node ids ('path:Class.method'), paths, or qualified "
                                                              "names.")
    max_lines: int = Field(120, ge=1, le=2000, description="Cap on the code lines returned per node.")


class ExploreArgs(BaseModel):
    start: list[str] = Field(max_length=MAX_NAMES, description="Node ids (or names) to start from.")
    direction: Literal["upstream", "downstream", "both"] = Field("downstream", description="Follow edges "
                                                                 "out of (downstream) or into (upstream) nodes.")
    depth: int = Field(2, ge=1, le=6, description="How many hops.")
    edge_kinds: list[EdgeKindName] = Field(default_factory=list, description="Only these edge kinds (all if empty).")
    node_kinds: list[NodeKindName] = Field(default_factory=list, description="Only step onto nodes of these kinds "
                                           "(all if empty).")


def brief(node: Node, score: float | None = None) -> dict:
    """A node as a candidate: id, kind, file, line span, signature (units) and features."""
    data = {"id": node.id, "kind": node.kind.value, "path": node.path, "lines": [node.start, node.end],
            "features": node.features[:3]}
    if node.signature:
        data["signature"] = node.signature
    if score is not None:
        data["score"] = round(score, 4)
    return data


def _in_scope(workspace: RPGWorkspace, node_ids: set[str], scopes: list[str]) -> set[str]:
    if not scopes:
        return node_ids
    allowed: set[str] = set()
    for scope in scopes:
        if scope in workspace.rpg:
            allowed |= {scope, *workspace.rpg.descendants(scope)}
        allowed |= {n for n in node_ids if workspace.rpg.node(n).path.startswith(scope)}
    return node_ids & allowed


def search_node(workspace: RPGWorkspace, args: SearchArgs) -> list[dict]:
    """Rank nodes by BM25 over code chunks and/or fuzzy feature similarity (both normalised to 0..1)."""
    combined: dict[str, float] = {}
    if args.mode in ("code", "both"):
        bm25 = workspace.bm25.scores(args.query)
        top = max(bm25.values(), default=1.0) or 1.0
        for node_id, value in bm25.items():
            combined[node_id] = combined.get(node_id, 0.0) + value / top
    if args.mode in ("feature", "both"):
        for node_id, value in workspace.fuzzy.scores(args.query).items():
            combined[node_id] = combined.get(node_id, 0.0) + value
    allowed = _in_scope(workspace, set(combined), args.scopes)
    if not args.include_tests:
        allowed = {n for n in allowed if not is_support_path(workspace.rpg.node(n).path)}
    kinds = {NodeKind(k) for k in args.kinds}
    ranked = sorted(((v, k) for k, v in combined.items() if k in allowed
                     and (not kinds or workspace.rpg.node(k).kind in kinds)), key=lambda item: (-item[0], item[1]))
    return [brief(workspace.rpg.node(node_id), value) for value, node_id in ranked[:args.top_k]]


def fetch_node(workspace: RPGWorkspace, args: FetchArgs) -> list[dict]:
    """Code, features, summary and location of each named entity (unknown names are reported)."""
    results = []
    for name in args.names:
        matches = workspace.find(name)
        if not matches:
            results.append({"name": name, "error": "no such node"})
        for node_id in matches[:5]:
            node = workspace.rpg.node(node_id)
            results.append({**brief(node), "features": node.features, "summary": node.summary,
                            "signature": node.signature, "parent": workspace.rpg.parent(node_id),
                            "children": workspace.rpg.children(node_id)[:30],
                            "code": workspace.code(node, args.max_lines)})
    return results


def explore_rpg(workspace: RPGWorkspace, args: ExploreArgs) -> dict:
    """Breadth-first walk along chosen edge kinds; returns the edges crossed and the nodes reached."""
    rpg = workspace.rpg
    kinds = {EdgeKind(k) for k in args.edge_kinds} or set(EdgeKind)
    node_kinds = {NodeKind(k) for k in args.node_kinds}
    starts = [m for name in args.start for m in workspace.find(name)[:1]]
    seen, frontier, edges = set(starts), list(starts), []
    for hop in range(1, args.depth + 1):
        following = []
        for current in frontier:
            for source, target, kind in _adjacent(rpg, current, args.direction, kinds):
                other = target if source == current else source
                if node_kinds and rpg.node(other).kind not in node_kinds:
                    continue
                edges.append({"source": source, "target": target, "kind": kind.value, "depth": hop})
                if other not in seen:
                    seen.add(other)
                    following.append(other)
        frontier = following
    reached = [brief(rpg.node(n)) for n in seen if n not in starts]
    return {"start": starts, "edges": edges, "nodes": sorted(reached, key=lambda d: d["id"])}


def _adjacent(rpg, node_id: str, direction: str, kinds: set[EdgeKind]):
    if direction in ("downstream", "both"):
        for _, target, key in rpg.graph.out_edges(node_id, keys=True):
            if EdgeKind(key) in kinds:
                yield node_id, target, EdgeKind(key)
    if direction in ("upstream", "both"):
        for source, _, key in rpg.graph.in_edges(node_id, keys=True):
            if EdgeKind(key) in kinds:
                yield source, node_id, EdgeKind(key)


def rpg_tools(workspace: RPGWorkspace) -> list[Tool]:
    """The three navigation tools bound to one workspace."""
    return [
        Tool("search_node", "Search the repository planning graph: BM25 over code plus fuzzy search over "
             "lifted features, optionally within scopes and node kinds.", SearchArgs,
             lambda a: search_node(workspace, a), group="rpg", capabilities=("read_files",)),
        Tool("fetch_node", "Fetch code, features and location (path, line range) of named entities.",
             FetchArgs, lambda a: fetch_node(workspace, a), group="rpg", capabilities=("read_files",)),
        Tool("explore_rpg", "Follow dependencies (imports, invokes, inherits) and hierarchy (contains) "
             "upstream, downstream or both from given nodes.", ExploreArgs,
             lambda a: explore_rpg(workspace, a), group="rpg", capabilities=("read_files",)),
    ]
