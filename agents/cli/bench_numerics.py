"""`agent bench bred`, `sae-l0`, `graph-align` and `sigs`: the numerics checks, with plots in the run directory."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Callable, Optional

import typer

from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.cli.common import run_benchmark
from agents.cli.executor_options import ExecutorOption, opened_executor
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output


def run_check_bench(name: str, config: dict, check: Callable[[Path], tuple[dict, list[dict]]], title: str,
                    output: Output, columns: list[str] | None = None) -> None:
    """Run one check inside a run directory (``check`` gets its artifacts folder, where plots land) and show its
    table, with ``columns`` when given."""
    def measure(run) -> Report:
        summary, rows = check(run.artifacts)
        return Report(summary=summary, rows=rows, title=title, columns=columns)

    run, report = run_benchmark(name, config, measure)
    output.report(report, run)


@bench_app.command("bred")
@with_output
def bench_bred(quick: Annotated[bool, typer.Option(help="Shorter runs (the test-suite setting).")] = False,
               *, output: Output) -> None:
    """BRED/BRED-M against DSGD and Exact Diffusion: exactness, attacks, spectral gap."""
    from numerics.decentralized.checks import run_checks

    run_check_bench("bench-bred", {"quick": quick}, lambda out: run_checks(out, quick=quick),
           "BRED checks (heterogeneous least squares and logistic regression)", output)


@bench_app.command("sae-l0")
@with_output
def bench_sae_l0(k_max: Annotated[int, typer.Option(min=1, help="Sweep k = 1, 1 + k_step, ... up to k_max.")] = 21,
                 k_step: Annotated[int, typer.Option(min=1, help="Step between the k of the sweep.")] = 2,
                 steps: Annotated[int, typer.Option(min=1, help="Training steps per SAE.")] = 1500,
                 *, output: Output) -> None:
    """Sweep BatchTopK k on the correlated toy model (true L0 about 11); the proxy's L0 against the true L0.
    A sweep that stops below the true L0, or whose elbow is its last k, is warned about."""
    import torch

    from numerics.sae.checks import toy_l0_check

    torch.set_num_threads(1)
    ks = range(1, k_max + 1, k_step)
    done = iter(range(1, len(ks) + 1))

    def check(out: Path) -> tuple[dict, list[dict]]:
        summary, rows = toy_l0_check(out, ks=ks, steps=steps, on_point=lambda p: print(
            f"k={p.k} ({next(done)}/{len(ks)} SAEs): projection {p.projection:.4f}, recovery {p.recovery:.3f}",
            flush=True))
        if "warning" in summary:
            print(f"warning: {summary['warning']}", file=sys.stderr)
        return summary, rows

    run_check_bench("bench-sae-l0", {"k_max": k_max, "k_step": k_step, "steps": steps}, check,
           "SAE L0 selection on the toy model (50 correlated features in 100 dims)", output)


@bench_app.command("graph-align")
@with_output
def bench_graph_align(models: Annotated[str, typer.Option(help="Comma-separated GNNs: gat, gin, gcn.")] = "gat,gin,gcn",
                      noises: Annotated[str, typer.Option(help="Comma-separated noise levels.")] = "0,0.04,0.1,0.2,0.3",
                      nodes: Annotated[int, typer.Option(help="Nodes per graph.")] = 100,
                      degree: Annotated[float, typer.Option(help="Expected degree of the ER graphs.")] = 8.0,
                      train_steps: Annotated[int, typer.Option(help="Training pairs per model and noise.")] = 300,
                      test_pairs: Annotated[int, typer.Option(help="Test pairs per noise level.")] = 5,
                      graph: Annotated[str, typer.Option(help="er, or a networkx graph: karate, les_miserables, "
                                                              "florentine, davis.")] = "er",
                      *, output: Output) -> None:
    """Rank siamese GNNs (and the Laplacian baseline) by Hungarian accuracy across noise levels."""
    import torch

    from benchmarks.graphalign.suite import SuiteConfig, run_suite

    torch.set_num_threads(1)
    config = SuiteConfig(models=tuple(m.strip() for m in models.split(",")),
                         noises=tuple(float(x) for x in noises.split(",")), nodes=nodes, degree=degree,
                         train_steps=train_steps, test_pairs=test_pairs, graph=graph)
    run_check_bench("bench-graph-align", config.__dict__, lambda out: run_suite(config),
           f"Graph alignment ({graph}, {nodes} nodes, degree {degree})", output)


@bench_app.command("sigs")
@with_output
def bench_sigs(cases: Annotated[Optional[str], typer.Option(help="Comma-separated case names (default: all).")] = None,
               executor: ExecutorOption = None, *, output: Output) -> None:
    """Symbolic PDE solving: exact recovery of heat, wave, advection, Burgers and a coupled system (one
    executor job per case: with --executor ray the cases run on the cluster's nodes at once)."""
    from benchmarks.executor import check_spec
    from benchmarks.executor.sweeps import sigs_checks

    from numerics.symbolic.checks import CASES

    names = [c.strip() for c in cases.split(",")] if cases else None
    unknown = [name for name in names or [] if name not in CASES]
    if unknown:
        raise UserError(f"no SIGS case {', '.join(unknown)} (choose from {', '.join(CASES)})")
    check_spec(executor)

    def check(out: Path) -> tuple[dict, list[dict]]:
        with opened_executor(executor, None) as where:
            return sigs_checks(where, names, on_row=lambda r: print(
                f"{r['case']}: exact={r['exact']} residual={r['residual']:.2e} ({r['seconds']} s)", flush=True))

    run_check_bench("bench-sigs", {"cases": names, "executor": executor}, check, "SIGS: closed-form PDE solutions", output)
