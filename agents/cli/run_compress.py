"""`agent run compress`: chain prune / low-rank / quantise steps on a TinyLM, with error and perplexity per step."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.groups import run_app
from agents.cli.output import Output, with_output
from agents.runtime.launch import execute_run
from agents.runtime.registry import register_agent
from agents.runtime.run import Run

AGENT = "compress"
register_agent(AGENT, "agents.compress.agent:execute")


@run_app.command("compress")
@with_output
def run_compress(model_file: Annotated[str, typer.Option(help="TinyLM .pt file, or 'fixture'.")] = "fixture",
                 steps: Annotated[str, typer.Option(help="e.g. prune:0.5,lowrank:0.8,quant:4 (optional :METHOD: "
                                                         "wanda|magnitude, a3|svd|whitened_svd, "
                                                         "twinquant|rtn|svd_rtn|rotation_rtn).")]
                 = "prune:0.5,lowrank:0.8,quant:4",
                 windows: Annotated[Optional[int], typer.Option(help="Validation windows (default all).")] = None,
                 calibration: Annotated[int, typer.Option(help="Calibration windows.")] = 32,
                 quant_steps: Annotated[int, typer.Option(help="TwinQuant steps per layer.")] = 40,
                 *, output: Output) -> None:
    """Prune, store sparse, reduce rank and quantise a model, printing error and perplexity after each step."""
    from agents.compress.config import CompressConfig
    from tools.numerics.compression import parse_steps

    parse_steps(steps)
    config = CompressConfig(model_file=model_file, steps=steps, windows=windows, calibration=calibration,
                            quant_steps=quant_steps)
    run = Run.create(AGENT, config)
    run.update_meta(model="offline")
    output.report(execute_run(run, None), run)
