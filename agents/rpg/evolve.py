"""Incremental evolution driven by git: update an RPG from one commit to another locally.

Only changed Python files are re-parsed. Their units are replaced; units whose normalised AST did
not change keep their lifted features; dependency edges are recomputed only for the changed files
and for the files whose earlier resolution consulted a changed module. Deleted units go, and empty
hierarchy nodes are pruned. A file is re-placed in the hierarchy only when its summary drifts.
The result equals a full build of the new commit node for node and edge for edge.
"""

from __future__ import annotations

import time

from benchmarks.repo.gcpause import paused
from sandboxes.telemetry import emit

from agents.rpg.build import BuildStats, EncodeConfig, Lifter, install_file, package_dirs, parse_listing
from agents.rpg.parse import module_name
from agents.rpg.resolve import Resolver, bindings
from agents.rpg.source import SUBMODULE_MODE, Skipped, git, list_commit, read_commit, resolve_commit
from memory.rpg.graph import RPG, EdgeKind, NodeKind
from tools.rpg.workspace import trigrams

DRIFT_THRESHOLD = 0.6
"""Summaries at least this similar (trigram Dice) keep the file where it is in the hierarchy."""


def changed_paths(repo: str, old: str, new: str) -> tuple[set[str], list[Skipped]]:
    """Python paths added, modified or deleted between two commits (renames count as both)."""
    out = git(repo, "diff", "--raw", "--no-renames", "-z", old, new).split(b"\0")
    paths, skipped = set(), []
    for meta, path in zip(out[0::2], out[1::2]):
        path_text = path.decode("utf-8", "surrogateescape")
        if SUBMODULE_MODE in meta.decode():
            skipped.append(Skipped(path_text, "submodule"))
        elif path_text.endswith(".py"):
            paths.add(path_text)
    return paths, skipped


@paused
def evolve(rpg: RPG, repo: str, new: str, lifter: Lifter, config: EncodeConfig | None = None,
           old: str | None = None) -> BuildStats:
    """Move ``rpg`` (built at ``old``, default ``rpg.commit``) to commit ``new`` in place."""
    config = config or EncodeConfig()
    started = time.perf_counter()
    old_commit = resolve_commit(repo, old or rpg.commit)
    new_commit = resolve_commit(repo, new)
    changed, skipped = changed_paths(repo, old_commit, new_commit)
    stats = BuildStats(skipped=skipped)
    all_paths = [p for mode, _, p in list_commit(repo, new_commit) if mode != SUBMODULE_MODE and p.endswith(".py")]
    changed |= _moved_modules(rpg, package_dirs(all_paths))
    stats.changed = sorted(changed)
    listing = read_commit(repo, new_commit, changed)
    stats.skipped += listing.skipped
    incoming = _incoming_edges(rpg, changed)
    previous = _forget_files(rpg, changed)
    parsed = parse_listing(listing, all_paths, config, stats)
    new_units = _install(rpg, parsed, previous, lifter, stats)
    _restore(rpg, incoming)
    lifter.lift_units(rpg, new_units)
    _replace_drifted(rpg, [f.path for f in parsed], previous, lifter)
    rpg.prune_empty_hierarchy()
    keys, wildcards = _changed_lookups(rpg, parsed, previous)
    affected = {f.path for f in parsed} | _consulting(rpg, keys, wildcards)
    resolver = Resolver(rpg)
    resolver.resolve_files(sorted(affected))
    stats.symbols = resolver.index
    rpg.commit = new_commit
    stats.files, stats.resolved_files = len(parsed), len(affected)
    stats.seconds = time.perf_counter() - started
    emit("rpg.evolved", old=old_commit, new=new_commit, **stats.summary())
    return stats


def _incoming_edges(rpg: RPG, paths: set[str]) -> list[tuple[str, str, EdgeKind]]:
    """Dependency edges into the changed files' units from elsewhere (kept unless re-resolved)."""
    inside = {n for p in paths if p in rpg for n in [p, *rpg.descendants(p)]}
    return [(source, target, EdgeKind(key)) for target in inside
            for source, _, key in rpg.graph.in_edges(target, keys=True)
            if source not in inside and key != EdgeKind.CONTAINS.value]


def _restore(rpg: RPG, edges: list[tuple[str, str, EdgeKind]]) -> None:
    for source, target, kind in edges:
        if source in rpg and target in rpg:
            rpg.link(source, target, kind)


def _forget_files(rpg: RPG, paths: set[str]) -> dict[str, dict]:
    """Remove the changed files' nodes, remembering what re-lifting and re-placing may reuse."""
    previous = {}
    for path in paths:
        node = rpg.get(path)
        if node is None or node.kind is not NodeKind.FILE:
            continue
        units = {uid: (rpg.node(uid).ast_hash, rpg.node(uid).features) for uid in rpg.descendants(path)}
        previous[path] = {"module": node.extra["module"], "summary": node.summary, "units": units,
                          "parent": rpg.parent(path), "bindings": bindings(rpg, path)}
        rpg.remove(path)
    return previous


def _install(rpg: RPG, parsed: list, previous: dict[str, dict], lifter: Lifter, stats: BuildStats) -> list[str]:
    """Add the re-parsed files; returns the units whose normalised AST changed (to be lifted)."""
    to_lift = []
    for facts in parsed:
        old_units = previous.get(facts.path, {}).get("units", {})
        for unit_id in install_file(rpg, facts):
            old = old_units.get(unit_id)
            if old and old[0] == rpg.node(unit_id).ast_hash:
                rpg.node(unit_id).features = list(old[1])
            else:
                to_lift.append(unit_id)
    stats.relifted_units = len(to_lift)
    return to_lift


def _replace_drifted(rpg: RPG, file_ids: list[str], previous: dict[str, dict], lifter: Lifter) -> None:
    """Summarise re-parsed files; keep the old placement unless the summary drifted."""
    lifter.summarise_files(rpg, file_ids)
    to_place = []
    for file_id in file_ids:
        before = previous.get(file_id)
        if before and before["parent"] in rpg and not drifted(before["summary"], rpg.node(file_id).summary):
            rpg.link(before["parent"], file_id, EdgeKind.CONTAINS)
        else:
            to_place.append(file_id)
    lifter.place_files(rpg, to_place)


def drifted(before: str, after: str, threshold: float = DRIFT_THRESHOLD) -> bool:
    """Whether a file summary changed enough (trigram Dice below ``threshold``) to re-place the file."""
    if before == after:
        return False
    old, new = trigrams(before), trigrams(after)
    return 2 * len(old & new) / (len(old) + len(new)) < threshold


def _moved_modules(rpg: RPG, packages: set[str]) -> set[str]:
    """Files whose dotted module changes (an added or removed ``__init__.py``): they are re-parsed."""
    return {n.path for n in rpg.nodes(NodeKind.FILE) if module_name(n.path, packages) != n.extra["module"]}


def _changed_lookups(rpg: RPG, parsed: list, previous: dict[str, dict]) -> tuple[set[str], set[str]]:
    """``module:name`` lookups whose answer may have changed, and modules where any lookup may have.

    A modified module changes the names whose binding differs, class members included (all of them
    if its star imports changed). An added, deleted or moved module changes every lookup in it, and
    its name in its parent package.
    """
    keys: set[str] = set()
    wildcards: set[str] = set()
    new_modules = {facts.path: facts.module for facts in parsed}
    for path in set(new_modules) | set(previous):
        old_module = previous.get(path, {}).get("module")
        new_module = new_modules.get(path)
        if old_module is not None and old_module == new_module:
            before, after = previous[path]["bindings"], bindings(rpg, path)
            if before.get("*") != after.get("*"):
                wildcards.add(new_module)
            keys |= {name if "#" in name else f"{new_module}:{name}"
                     for name in set(before) | set(after) if before.get(name) != after.get(name)}
            continue
        for module in filter(None, (old_module, new_module)):
            wildcards.add(module)
            parent, _, last = module.rpartition(".")
            keys.add(f"{parent}:{last}")
    return keys, wildcards


def _consulting(rpg: RPG, keys: set[str], wildcards: set[str]) -> set[str]:
    """Files whose last resolution made any of these lookups."""
    return {n.id for n in rpg.nodes(NodeKind.FILE)
            if any(c in keys or c.split(":", 1)[0] in wildcards for c in n.extra.get("consults", ()))}
