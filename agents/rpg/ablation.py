"""The `bench-rpg-ablation` agent: the offline localiser, the BM25 baseline and the localiser without each
of its components, side by side on the same instances (one graph per repository, evolved from commit
to commit and shared by every variant), in one table."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from benchmarks.report import Report
from benchmarks.repo.harness import Outcome, RepoBenchConfig, summarise
from benchmarks.repo.instances import load_instances, read_ids
from sandboxes.errors import UserError
from sandboxes.settings import Config

from agents.rpg.bench import evaluate_resumably, instances_path
from agents.rpg.localize_offline import RankConfig
from agents.rpg.localizers import BM25_CONFIG, RepoGraphs, RPGLocalizer
from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run

VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "rpg": ("the offline localiser, every component", {}),
    "bm25": ("BM25 over code chunks alone, tests included", BM25_CONFIG.model_dump()),
    "bm25 -tests": ("BM25 alone, test files left out", {**BM25_CONFIG.model_dump(), "include_tests": False}),
    "rpg -walk": ("no personalised PageRank", {"walk_weight": 0.0}),
    "rpg -degree-norm": ("plain PageRank (walk mass not divided by degree)", {"degree_power": 0.0}),
    "rpg degree^0.5": ("walk mass divided by the square root of degree", {"degree_power": 0.5}),
    "rpg -contains": ("the walk does not cross containment edges", {"contains_weight": 0.0}),
    "rpg -title": ("the issue's title weighs no more than its body", {"title_weight": 0.0}),
    "rpg title 1.0": ("the title's BM25 weighs as much as the whole issue's", {"title_weight": 1.0}),
    "rpg -places": ("no traceback frames or file paths from the issue", {"place_weight": 0.0}),
    "rpg -frame-decay": ("every traceback frame weighs alike (not the innermost most)", {"frame_decay": 1.0}),
    "rpg -names": ("the walk does not start from the issue's example code and code names", {"name_weight": 0.0}),
    "rpg -test-filter": ("test files (and top-level docs, examples, benchmarks) are candidates",
                         {"include_tests": True}),
    "rpg -drop-env": ("the issue's environment report (versions, OS) is read too", {"drop_environment": False}),
    "rpg +features": ("fuzzy feature similarity added to the evidence", {"feature_weight": 0.5}),
    "rpg walk 0.5": ("the walk weighs five times as much (0.5, the earlier default)", {"walk_weight": 0.5}),
    "rpg walk 1.0": ("the walk weighs ten times as much", {"walk_weight": 1.0}),
    "rpg restart 0.6": ("the walker jumps back twice as often (stays closer to the seeds)", {"restart": 0.6}),
    "rpg seeds 100": ("the walk starts from the 100 strongest nodes, not 30", {"seeds": 100}),
    "rpg +named-files": ("the code the issue names is evidence for its files (file level, weight 0.5)",
                         {"name_file_weight": 0.5}),
    "rpg -walk +named-files": ("no walk; the code the issue names is evidence for its files",
                               {"walk_weight": 0.0, "name_file_weight": 0.5}),
}
COLUMNS = ("file.acc@1", "file.acc@3", "file.acc@5", "module.acc@5", "function.acc@1", "function.acc@5",
           "function.acc@10")


class AblationConfig(Config):
    """One `agent bench rpg-ablation` run ([bench_rpg_ablation] in agentkiln.toml)."""

    instances: str = "demo"
    """SWE-bench JSON/JSONL file of instances, or ``demo`` for the built-in demo repository."""
    exclude: str | None = None
    """A file of instance ids (one per line) to leave out."""
    limit: int | None = None
    """Evaluate only the first N instances (in file order)."""
    variants: list[str] = Field(default_factory=lambda: list(VARIANTS))
    """Which variants to run (names from the table; ``rpg`` and ``bm25`` are always included)."""
    bench: RepoBenchConfig = Field(default_factory=RepoBenchConfig)
    """Harness settings: ks, workers, cache and mirrors."""


def variant_localizers(names: list[str], graphs: RepoGraphs) -> list[RPGLocalizer]:
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise UserError(f"unknown variant(s) {', '.join(unknown)} (choose from {', '.join(VARIANTS)})")
    chosen = list(dict.fromkeys(["rpg", "bm25", *names]))
    return [RPGLocalizer(graphs, None, rank=RankConfig(**VARIANTS[n][1]), name=n) for n in chosen]


def paired(rpg: list[Outcome], bm25: list[Outcome], key: str) -> dict[str, int]:
    """How many instances only rpg, only bm25, or both get right at one metric (``file.acc@1``)."""
    level, metric = key.split(".")
    counts = {"only rpg": 0, "only bm25": 0, "both": 0}
    for mine, theirs in zip(rpg, bm25):
        a, b = ((o.scores.get(level) or {}).get(metric, 0.0) for o in (mine, theirs))
        if a and b:
            counts["both"] += 1
        elif a or b:
            counts["only rpg" if a else "only bm25"] += 1
    return counts


def ablation_report(by_variant: dict[str, list[Outcome]], localizers: list[RPGLocalizer], ks: tuple[int, ...]) -> Report:
    rows, summaries = [], {}
    for localizer in localizers:
        outcomes = by_variant[localizer.name]
        summaries[localizer.name] = summary = summarise(outcomes, ks, localizer)
        scored = [o for o in outcomes if not o.skipped]
        rows.append({"variant": localizer.name, "changes": VARIANTS[localizer.name][0],
                     **{column: summary.get(column) for column in COLUMNS},
                     "mean_s": round(sum(o.seconds for o in scored) / max(len(scored), 1), 3)})
    base, rpg = summaries["bm25"], summaries["rpg"]
    summary = {"instances": rpg["instances"], "scored": rpg["scored"], "skipped": rpg["skipped"],
               "repositories": sorted({o.instance.repo for o in by_variant["rpg"]}),
               "rpg_minus_bm25.file.acc@5": round(rpg["file.acc@5"] - base["file.acc@5"], 2),
               "rpg_minus_bm25.function.acc@1": round(rpg["function.acc@1"] - base["function.acc@1"], 2)}
    for key in ("file.acc@1", "file.acc@5", "function.acc@1"):
        summary[f"paired.{key}"] = paired(by_variant["rpg"], by_variant["bm25"], key)
    return Report(summary=summary, rows=rows, title="RPG localisation ablation (offline)")


def execute(run: Run, model: ChatModel | None) -> Report:
    """Evaluate every variant on every instance not yet finished in this run, then report them all."""
    config = AblationConfig(**run.config)
    exclude = read_ids(config.exclude) if config.exclude else set()
    instances = load_instances(instances_path(config.instances, run), exclude)[:config.limit]
    localizers = variant_localizers(config.variants, RepoGraphs())
    finished = evaluate_resumably(run, instances, localizers, config.bench, "bench rpg-ablation")
    done = [i for i in instances if i.instance_id in finished]
    by_variant = {loc.name: [finished[i.instance_id][n] for i in done] for n, loc in enumerate(localizers)}
    return ablation_report(by_variant, localizers, tuple(config.bench.ks))
