"""Full build: source files → parsed units → lifted features and hierarchy → resolved dependencies."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import Field

from benchmarks.repo.gcpause import paused
from sandboxes.settings import Config
from sandboxes.telemetry import emit

from agents.rpg.parse import FileFacts, Unit, module_name, parse_file
from agents.rpg.resolve import Resolver, SymbolIndex
from agents.rpg.source import Listing, Skipped, check_content
from memory.rpg.graph import RPG, EdgeKind, Node, NodeKind
from tools.rpg.files import MAX_SOURCE_BYTES


class EncodeConfig(Config):
    """How the encoder reads and lifts a repository."""

    max_file_bytes: int = MAX_SOURCE_BYTES
    """Python files larger than this are reported as huge and skipped."""
    exclude: list[str] = Field(default_factory=list)
    """Path prefixes to leave out (for example ``tests/``)."""


class Lifter(Protocol):
    """Semantic lifting: unit features, file summaries, and the functional hierarchy."""

    name: str
    policy: str

    def lift_units(self, rpg: RPG, unit_ids: list[str]) -> None: ...

    def summarise_files(self, rpg: RPG, file_ids: list[str]) -> None: ...

    def place_files(self, rpg: RPG, file_ids: list[str]) -> None: ...


@dataclass
class BuildStats:
    """What a build or an update did, for reports."""

    files: int = 0
    lines: int = 0
    seconds: float = 0.0
    skipped: list[Skipped] = field(default_factory=list)
    parsed: list[str] = field(default_factory=list)
    relifted_units: int = 0
    resolved_files: int = 0
    changed: list[str] = field(default_factory=list)
    """Paths an update re-read or removed (added, modified, deleted or moved files)."""
    symbols: SymbolIndex | None = None
    """The symbol tables the build or update resolved against, valid for the graph it left: a ranker of that
    graph state reuses them instead of deriving them from the whole graph again."""

    def summary(self) -> dict:
        return {"files": self.files, "lines": self.lines, "seconds": round(self.seconds, 4),
                "skipped": len(self.skipped), "parsed_files": len(self.parsed),
                "relifted_units": self.relifted_units, "resolved_files": self.resolved_files}


def package_dirs(paths: list[str]) -> set[str]:
    return {p.rsplit("/", 1)[0] for p in paths if p.endswith("/__init__.py")}


def parse_listing(listing: Listing, paths: list[str], config: EncodeConfig, stats: BuildStats) -> list[FileFacts]:
    """Parse the given files of ``listing``; bad input is recorded in ``stats.skipped``."""
    packages = package_dirs(paths)
    parsed = []
    for path in sorted(listing.files):
        if any(path.startswith(prefix) for prefix in config.exclude):
            continue
        text, reason = check_content(path, listing.files[path], config.max_file_bytes)
        if text is None:
            stats.skipped.append(Skipped(path, reason))
            continue
        try:
            parsed.append(parse_file(path, text, module_name(path, packages)))
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            stats.skipped.append(Skipped(path, f"does not parse: {type(error).__name__}: {error}"[:200]))
    for item in stats.skipped:
        emit("rpg.skipped", path=item.path, reason=item.reason)
    stats.parsed += [f.path for f in parsed]
    stats.lines += sum(f.lines for f in parsed)
    return parsed


def install_file(rpg: RPG, facts: FileFacts) -> list[str]:
    """Add a file node and its units (with ``contains`` edges); returns the unit ids."""
    rpg.add(Node(facts.path, NodeKind.FILE, facts.path.rsplit("/", 1)[-1], facts.path, 1, facts.lines,
                 docstring=facts.docstring,
                 extra={"module": facts.module, "imports": [list(i) for i in facts.imports],
                        "stars": facts.stars, "calls": facts.calls, "variables": facts.variables, "consults": []}))
    unit_ids: list[str] = []
    for unit in facts.units:
        unit_id = f"{facts.path}:{unit.qualname}"
        if unit_id in rpg:  # a redefinition (e.g. a property setter) extends the first definition
            _merge(rpg.node(unit_id), unit)
            continue
        kind = NodeKind(unit.kind)
        rpg.add(Node(unit_id, kind, unit.qualname.rsplit(".", 1)[-1], facts.path, unit.start, unit.end,
                     signature=unit.signature, docstring=unit.docstring, ast_hash=unit.ast_hash,
                     extra={"calls": unit.calls, "bases": unit.bases, "types": unit.types}))
        parent_qual = unit.qualname.rpartition(".")[0]
        parent = f"{facts.path}:{parent_qual}" if parent_qual else facts.path
        rpg.link(parent if parent in rpg else facts.path, unit_id, EdgeKind.CONTAINS)
        unit_ids.append(unit_id)
    return unit_ids


def _merge(node: Node, unit: Unit) -> None:
    node.end = max(node.end, unit.end)
    node.extra["calls"] += [c for c in unit.calls if c not in node.extra["calls"]]
    node.extra["types"] = {**unit.types, **node.extra.get("types", {})}
    node.ast_hash = f"{node.ast_hash}+{unit.ast_hash}"[:64]


@paused
def build_rpg(listing: Listing, lifter: Lifter, config: EncodeConfig | None = None,
              name: str = "", commit: str = "") -> tuple[RPG, BuildStats]:
    """Encode every Python file of ``listing`` into a fresh graph."""
    config = config or EncodeConfig()
    started = time.perf_counter()
    stats = BuildStats(skipped=list(listing.skipped))
    rpg = RPG(name, commit)
    rpg.meta["lifter"] = lifter.policy
    parsed = parse_listing(listing, list(listing.files), config, stats)
    unit_ids = [uid for facts in parsed for uid in install_file(rpg, facts)]
    file_ids = [facts.path for facts in parsed]
    lifter.lift_units(rpg, unit_ids)
    lifter.summarise_files(rpg, file_ids)
    lifter.place_files(rpg, file_ids)
    resolver = Resolver(rpg)
    resolver.resolve_files(file_ids)
    stats.symbols = resolver.index
    stats.files, stats.relifted_units, stats.resolved_files = len(file_ids), len(unit_ids), len(file_ids)
    stats.seconds = time.perf_counter() - started
    emit("rpg.built", **stats.summary())
    return rpg, stats
