"""Encoder performance on a real code base, measured side by side in one run.

A package's Python files are committed into a scratch git repository; then: a full offline build
(lines per second), an incremental update after a one-file change (as a fraction of the full build,
and checked equal to a full rebuild), and ``search_node`` latency over queries drawn from the graph.
"""

from __future__ import annotations

import random
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.repo.demo import commit_all, init_repo

from agents.rpg.build import build_rpg
from agents.rpg.evolve import evolve
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.source import read_commit
from memory.rpg.graph import RPG, NodeKind
from tools.rpg.navigation import SearchArgs, search_node
from tools.rpg.workspace import RPGWorkspace


def snapshot(source: Path, dest: Path) -> tuple[Path, str]:
    """Commit every ``*.py`` under ``source`` into a new repository ``dest/<name>``."""
    repo = dest / source.name
    files = {p.relative_to(source.parent).as_posix(): p.read_text(errors="replace")
             for p in sorted(source.rglob("*.py")) if "__pycache__" not in p.parts}
    return repo, init_repo(repo, files)


def typical_file(rpg: RPG) -> str:
    """The median-sized file among those that other files depend on (deterministic)."""
    consulted = {c.split(":", 1)[0] for n in rpg.nodes(NodeKind.FILE) for c in n.extra["consults"]
                 if not c.startswith(n.extra["module"] + ":")}
    candidates = sorted((n for n in rpg.nodes(NodeKind.FILE) if n.extra["module"] in consulted
                         and any(rpg.node(c).kind is NodeKind.FUNCTION for c in rpg.children(n.id))),
                        key=lambda n: (n.end, n.id))
    return candidates[len(candidates) // 2].id


def change_one_file(repo: Path, rpg: RPG, path: str) -> str:
    """Append a function that calls an existing one, and commit."""
    callee = next(rpg.node(c).name for c in rpg.children(path) if rpg.node(c).kind is NodeKind.FUNCTION)
    target = repo / path
    target.write_text(target.read_text() + f"\n\ndef _bench_added(*args):\n    return {callee}(*args)\n")
    return commit_all(repo, "one-file change")


def search_latency(workspace: RPGWorkspace, queries: int, seed: int) -> dict[str, float]:
    """Index build time and per-query latency of search_node in each mode (milliseconds)."""
    started = time.perf_counter()
    workspace.bm25, workspace.fuzzy  # noqa: B018 - build both indexes
    result: dict[str, float] = {"search.index_build_s": round(time.perf_counter() - started, 3)}
    units = sorted(n.id for n in workspace.rpg.nodes(NodeKind.FUNCTION, NodeKind.METHOD, NodeKind.CLASS))
    picks = random.Random(seed).sample(units, min(queries, len(units)))
    texts = [" ".join(workspace.rpg.node(u).features[:2]) or workspace.rpg.node(u).name for u in picks]
    for mode in ("code", "feature", "both"):
        times = []
        for text in texts:
            began = time.perf_counter()
            search_node(workspace, SearchArgs(query=text, mode=mode, top_k=10))
            times.append(1000 * (time.perf_counter() - began))
        result[f"search.{mode}.median_ms"] = round(statistics.median(times), 3)
        result[f"search.{mode}.p95_ms"] = round(sorted(times)[int(0.95 * (len(times) - 1))], 3)
    return result


def measure(source: Path, scratch: Path, queries: int = 100, seed: int = 0) -> tuple[dict[str, Any], list[dict]]:
    """Full build, one-file incremental update and search latency on ``source``; summary and rows."""
    repo, base = snapshot(source, scratch)
    lifter = OfflineLifter()
    began = time.perf_counter()
    rpg, stats = build_rpg(read_commit(repo, base), lifter, name=source.name, commit=base)
    full_s = time.perf_counter() - began
    changed = typical_file(rpg)
    new = change_one_file(repo, rpg, changed)
    began = time.perf_counter()
    update = evolve(rpg, str(repo), new, lifter)
    incremental_s = time.perf_counter() - began
    began = time.perf_counter()
    rebuilt, _ = build_rpg(read_commit(repo, new), lifter, name=source.name, commit=new)
    rebuild_s = time.perf_counter() - began
    summary: dict[str, Any] = {
        "code_base": str(source), "files": stats.files, "lines": stats.lines, "skipped": len(stats.skipped),
        "nodes": rpg.graph.number_of_nodes(), "edges": rpg.graph.number_of_edges(), "lifter": lifter.policy,
        "full_build_s": round(full_s, 3), "full_build_lines_per_s": round(stats.lines / full_s),
        "changed_file": changed, "incremental_s": round(incremental_s, 4),
        "incremental_fraction_of_full": round(incremental_s / full_s, 4),
        "incremental_resolved_files": update.resolved_files, "rebuild_s": round(rebuild_s, 3),
        "incremental_fraction_of_rebuild": round(incremental_s / rebuild_s, 4),
        "incremental_equals_rebuild": rpg.signature() == rebuilt.signature()}
    summary.update(search_latency(RPGWorkspace(rpg, root=repo), queries, seed))
    shutil.rmtree(repo, ignore_errors=True)
    rows = [{"measure": "full build (offline lifter)", "seconds": summary["full_build_s"]},
            {"measure": f"incremental update ({changed})", "seconds": summary["incremental_s"]},
            {"measure": "full rebuild of the new commit", "seconds": summary["rebuild_s"]}]
    return summary, rows
