"""`execute(run, model)` for the compression agent: a linear LangGraph of steps, each checkpointed, so a
resumed run does not recompute finished steps. It makes no model calls."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from benchmarks.report import Report

from agents.compress.config import CompressConfig
from agents.runtime.run import Run

AGENT = "compress"


class CompressState(TypedDict, total=False):
    """What flows from one step to the next."""

    model_path: str
    """The model file the next step starts from."""
    rows: Annotated[list[dict], operator.add]
    """One summary row per finished step (the original model first)."""
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
        run.emit("compress.step", **row)
        print(_row_line(row), flush=True)
        return {"model_path": str(path), "rows": [row], "bits": bits}
    return node


def execute(run: Run, model: Any = None) -> Report:
    """Run (or resume) the step pipeline; finished steps are not recomputed."""
    import torch

    from agents.runtime.graph import linear_graph, run_graph
    from tools.numerics.compression import load_lm, parse_steps, summarise

    torch.set_num_threads(1)
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
    return _report(config, final)


def _report(config: CompressConfig, final: CompressState) -> Report:
    base = final["rows"][0]["linear_bytes"]
    rows = [{**row, "block_errors": " ".join(f"{e:.4f}" for e in row["block_errors"]),
             "bytes_reduction": round(base / row["linear_bytes"], 3)} for row in final["rows"]]
    summary = {"model_file": config.model_file, "steps": config.steps, "final_model": final["model_path"],
               "policy": "offline: analytical compression (no model calls)",
               "quantisation": "simulated (weights dequantised to fp32 for evaluation)"}
    return Report(summary=summary, rows=rows, title=f"Compression of {config.model_file}: {config.steps}")
