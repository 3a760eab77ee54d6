"""`agent run compress`: chain prune / low-rank / quantise steps on a TinyLM, with error and perplexity per step."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Optional, TypedDict

import typer

from benchmarks.report import Report
from sandboxes.settings import Config

from agents.cli.common import JsonOption, emit_report
from agents.cli.groups import run_app
from agents.runtime.registry import register_agent
from agents.runtime.run import Run

AGENT = "compress"


class CompressConfig(Config):
    """One `agent run compress`."""

    model_file: str = "fixture"
    """A TinyLM .pt file, or 'fixture' for the shipped model."""
    steps: str = "prune:0.5,lowrank:0.8,quant:4"
    """Comma-separated steps: prune:SPARSITY, lowrank:RATIO, quant:BITS, each optionally :METHOD."""
    windows: Optional[int] = None
    """Validation windows for perplexity (None = the whole validation split)."""
    calibration: int = 32
    """Calibration windows (64 tokens each) for Wanda, A^3 and TwinQuant."""
    quant_steps: int = 40
    """TwinQuant optimisation steps per layer."""


class CompressState(TypedDict, total=False):
    model_path: str
    rows: Annotated[list[dict], operator.add]
    bits: dict[str, float]
    """Stored bits per weight of the layers quantised so far."""


def _row_line(row: dict) -> str:
    return (f"{row['step']}: perplexity {row['perplexity']}, mean block error {row['mean_block_error']}, "
            f"linear bytes {row['linear_bytes']}")


def _step_node(run: Run, config: CompressConfig, index: int, step: Any):
    def node(state: CompressState) -> CompressState:
        from numerics.fixture.model import save_model
        from tools.numerics.compression import apply_step, load_lm, summarise

        model = load_lm(state["model_path"])
        result = apply_step(model, step, config.calibration, config.quant_steps)
        # a later non-quantisation step rewrites the weights in floating point: count them as such again
        bits = {**state.get("bits", {}), **result["bits"]} if "bits" in result else {}
        path = run.artifacts / f"step{index}-{step.kind}.pt"
        save_model(model, path)
        row = summarise(model, load_lm(config.model_file), step.label, config.windows, bits or None)
        run.emit("compress.step", **{k: v for k, v in row.items()})
        print(_row_line(row), flush=True)
        return {"model_path": str(path), "rows": [row], "bits": bits}
    return node


def execute(run: Run, model: Any = None) -> Report:
    """Run (or resume) the step pipeline; finished steps are not recomputed."""
    from agents.runtime.graph import linear_graph, run_graph
    from tools.numerics.compression import load_lm, parse_steps, summarise

    config = CompressConfig(**run.config)
    steps = parse_steps(config.steps)
    original = load_lm(config.model_file)

    def start(state: CompressState) -> CompressState:
        row = summarise(original, original, "original", config.windows, None)
        print(_row_line(row), flush=True)
        return {"model_path": config.model_file, "rows": [row]}

    nodes = [("original", start)] + [(f"step{i}_{s.kind}", _step_node(run, config, i, s))
                                     for i, s in enumerate(steps, 1)]
    final = run_graph(linear_graph(CompressState, nodes), run, {"rows": []})
    base = final["rows"][0]["linear_bytes"]
    rows = [{**row, "block_errors": " ".join(f"{e:.4f}" for e in row["block_errors"]),
             "bytes_reduction": round(base / row["linear_bytes"], 3)} for row in final["rows"]]
    summary = {"model_file": config.model_file, "steps": config.steps, "final_model": final["model_path"],
               "policy": "offline: analytical compression (no model calls)",
               "quantisation": "simulated (weights dequantised to fp32 for evaluation)"}
    return Report(summary=summary, rows=rows, title=f"Compression of {config.model_file}: {config.steps}")


register_agent(AGENT, execute)


@run_app.command("compress")
def run_compress(model_file: Annotated[str, typer.Option(help="TinyLM .pt file, or 'fixture'.")] = "fixture",
                 steps: Annotated[str, typer.Option(help="e.g. prune:0.5,lowrank:0.8,quant:4 (optional :METHOD: "
                                                         "wanda|magnitude, a3|svd|whitened_svd, "
                                                         "twinquant|rtn|svd_rtn|rotation_rtn).")]
                 = "prune:0.5,lowrank:0.8,quant:4",
                 windows: Annotated[Optional[int], typer.Option(help="Validation windows (default all).")] = None,
                 calibration: Annotated[int, typer.Option(help="Calibration windows.")] = 32,
                 quant_steps: Annotated[int, typer.Option(help="TwinQuant steps per layer.")] = 40,
                 json_path: JsonOption = None) -> None:
    """Prune, store sparse, reduce rank and quantise a model, printing error and perplexity after each step."""
    import torch

    from tools.numerics.compression import parse_steps

    torch.set_num_threads(1)
    parse_steps(steps)
    config = CompressConfig(model_file=model_file, steps=steps, windows=windows, calibration=calibration,
                            quant_steps=quant_steps)
    run = Run.create(AGENT, config)
    with run.active():
        report = execute(run)
        run.write_report(report)
    emit_report(report, json_path, run)



