"""A finished search's outputs: best heuristic file, train/test gaps beside the baselines, plots, graph."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.pathwise.context import SearchContext
from benchmarks.ahd.bench import result_rows
from benchmarks.report import Report
from memory.entailment.graph import HeuristicNode
from memory.entailment.render import render
from memory.entailment.store import write_graphml, write_json


def write_best(node: HeuristicNode, ctx: SearchContext, path: Path) -> Path:
    """The best heuristic as a standalone module, its provenance in the header."""
    header = (f'"""Best heuristic found by {ctx.config.method} on {ctx.problem.name} ({node.id}).\n\n'
              f"Train gap: {node.score:.4f} %. Signature: {ctx.problem.signature}\n"
              f'Derivation: {node.rationale or node.origin}\n"""\n\n')
    path.write_text(header + node.code)
    return path


def convergence_plot(history: list[list[float]], path: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 4))
    xs, ys = [h[0] for h in history], [h[1] for h in history]
    axis.step(xs, ys, where="post", marker="o", markersize=3)
    axis.set_xlabel("evaluations")
    axis.set_ylabel("best train gap (%)")
    axis.set_title(title)
    axis.grid(alpha=0.3)
    figure.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(figure)
    return path


def gap_rows(ctx: SearchContext, best: HeuristicNode, test: bool) -> list[dict[str, Any]]:
    """Train and (optionally) test gaps per size for the best heuristic and every classic baseline."""
    rows = []
    splits = ("train", "test") if test else ("train",)
    methods = {f"best ({ctx.config.method})": best.code, **ctx.problem.baselines}
    for split in splits:
        sizes = set(ctx.config.test_sizes) if split == "test" and ctx.config.test_sizes else None
        evaluator = ctx.evaluator.sibling(split, wall_s=ctx.config.wall_s * 4, sizes=sizes)
        for method, evaluation in zip(methods, evaluator.evaluate_many(list(methods.values()))):
            rows += [{"split": split, **row} for row in result_rows(ctx.problem, method, evaluation, evaluator)]
            if not evaluation.ok:
                rows.append({"split": split, "method": method, "failure": evaluation.summary()})
    return rows


def finish(ctx: SearchContext, run, state: dict[str, Any], policy: str) -> Report:
    """Write every artifact into ``run.artifacts`` and return the run's report."""
    out = run.artifacts
    best = ctx.graph.best()
    files = {"graph_json": write_json(ctx.graph, out / "entailment_graph.json"),
             "graph_graphml": write_graphml(ctx.graph, out / "entailment_graph.graphml"),
             "graph_picture": render(ctx.graph, out / "entailment_graph.png", f"{ctx.problem.name} ({ctx.config.method})"),
             "convergence_plot": convergence_plot(state.get("history", []), out / "convergence.png",
                                                  f"{ctx.config.method} on {ctx.problem.name}")}
    rows = []
    if best is not None:
        files["best_heuristic"] = write_best(best, ctx, out / "best_heuristic.py")
        rows = gap_rows(ctx, best, ctx.config.test)
    totals = run.totals.as_dict() if hasattr(run, "totals") else {}
    summary = {"problem": ctx.problem.name, "method": ctx.config.method, "policy": policy,
               "evaluations": state.get("evaluations", 0), "heuristics_in_graph": len(ctx.graph),
               "best_id": best.id if best else None, "best_train_gap_percent": best.score if best else None,
               "best": f"{best.score:.4g}% train gap" if best else None,
               **totals, **{name: str(path) for name, path in files.items()}}
    return Report(summary=summary, rows=rows, title=f"PathWise run {run.id}: {ctx.problem.name}")
