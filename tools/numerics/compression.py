"""Tools over the compression toolbox: prune, store sparse (MACKO), low-rank (A^3), quantise (TwinQuant),
perplexity and layer error, on the shipped fixture LM or a model file, plus the step pipeline of
`agent run compress`. Model files are read and written only where the session's HostPaths allows.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from sandboxes.errors import UserError
from tools.base import Tool
from tools.hostpaths import HostPaths

FIXTURE = "fixture"


def load_lm(model_file: str) -> Any:
    """The shipped fixture for ``"fixture"``, else a model file written by ``save_model``."""
    from numerics.fixture.evaluate import load_fixture
    from numerics.fixture.model import load_model

    if model_file == FIXTURE:
        return load_fixture()
    if not Path(model_file).is_file():
        raise UserError(f"no model file at {model_file} (use 'fixture' for the shipped model)")
    try:
        return load_model(model_file)
    except Exception as error:
        raise UserError(f"{model_file} is not a TinyLM model file: {error}") from error


def calibration(count: int) -> Any:
    from numerics.fixture.corpus import calibration_tokens

    return calibration_tokens(count)


def evaluate_perplexity(model: Any, windows: int | None) -> float:
    from numerics.fixture.corpus import validation_windows
    from numerics.fixture.evaluate import perplexity

    return round(perplexity(model, validation_windows(model.config.context, limit=windows)), 4)


def block_errors(model: Any, reference: Any, count: int = 16) -> list[float]:
    """Relative output error of each block against ``reference``'s block, both fed the reference's inputs."""
    import torch

    tokens = calibration(count)
    with torch.no_grad():
        positions = torch.arange(tokens.shape[1])
        x = reference.tok(tokens) + reference.pos(positions)
        errors = []
        for ours, theirs in zip(model.blocks, reference.blocks):
            expected = theirs(x)
            errors.append(round(((ours(x) - expected).norm() / (expected - x).norm()).item(), 5))
            x = expected
    return errors


def linear_storage_bytes(model: Any, quant_bits: dict[str, float] | None = None) -> int:
    """Bytes of the linear layers as stored: quantised bits, else min(dense fp16, MACKO) per layer."""
    from numerics.sparse.macko import compress
    from numerics.sparse.storage import dense_fp16_bytes, macko_bytes

    total = 0
    for name, layer in model.linear_layers().items():
        weight = layer.weight.detach()
        if quant_bits and name in quant_bits:
            total += int(quant_bits[name] * weight.numel() / 8)
            continue
        dense = dense_fp16_bytes(tuple(weight.shape))
        sparse = macko_bytes(compress(weight.numpy())) if (weight == 0).float().mean() > 0.2 else dense
        total += min(dense, sparse)
    return total


@dataclass(frozen=True)
class Step:
    """One pipeline step: ``prune:0.5[:wanda]``, ``lowrank:0.8[:a3]`` or ``quant:4[:twinquant]``."""

    kind: str
    amount: float
    method: str

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.amount:g}:{self.method}"


DEFAULT_METHODS = {"prune": "wanda", "lowrank": "a3", "quant": "twinquant"}
AMOUNT_RANGES = {"prune": (lambda x: 0 <= x < 1, "a sparsity in [0, 1)"),
                 "lowrank": (lambda x: 0 < x <= 1, "a kept-parameter ratio in (0, 1]"),
                 "quant": (lambda x: x == int(x) and 2 <= x <= 8, "a whole number of bits from 2 to 8")}
"""What each step's amount must be, checked before anything runs."""


def parse_steps(text: str) -> list[Step]:
    """Parse ``prune:0.5,lowrank:0.8,quant:4``; a bad step is a UserError naming it."""
    steps = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        pieces = part.split(":")
        if pieces[0] not in DEFAULT_METHODS or len(pieces) not in (2, 3):
            raise UserError(f"bad step {part!r}: use prune:SPARSITY, lowrank:RATIO or quant:BITS "
                            f"(optionally :METHOD)")
        try:
            amount = float(pieces[1])
        except ValueError:
            raise UserError(f"bad step {part!r}: {pieces[1]!r} is not a number") from None
        valid, wanted = AMOUNT_RANGES[pieces[0]]
        if not valid(amount):
            raise UserError(f"bad step {part!r}: {pieces[0]} takes {wanted}, not {pieces[1]}")
        steps.append(Step(pieces[0], amount, pieces[2] if len(pieces) == 3 else DEFAULT_METHODS[pieces[0]]))
    if not steps:
        raise UserError("no compression steps given")
    return steps


def apply_step(model: Any, step: Step, calibration_count: int = 32, quant_steps: int = 40) -> dict:
    """Apply one step in place; returns its per-layer rows and, for quantisation, bits per layer."""
    from numerics.lowrank.apply import compress_lowrank
    from numerics.quant.apply import quantise_model
    from numerics.quant.twinquant import TwinQuantSettings
    from numerics.sparse.pruning import prune_model

    tokens = calibration(calibration_count)
    try:
        if step.kind == "prune":
            return {"rows": prune_model(model, step.amount, step.method, tokens)}
        if step.kind == "lowrank":
            return {"rows": compress_lowrank(model, step.amount, step.method, tokens)}
        settings = TwinQuantSettings(bits=int(step.amount), steps=quant_steps)
        rows = quantise_model(model, step.method, tokens, settings)
        return {"rows": rows, "bits": {row["layer"]: row["bits_per_weight"] for row in rows}}
    except ValueError as error:
        raise UserError(f"step {step.label}: {error}") from error


def summarise(model: Any, reference: Any, label: str, windows: int | None, bits: dict | None) -> dict:
    """One table row: perplexity, block errors against the original, linear parameters and bytes."""
    errors = block_errors(model, reference)
    return {"step": label, "perplexity": evaluate_perplexity(model, windows),
            "mean_block_error": round(sum(errors) / len(errors), 5), "block_errors": errors,
            "linear_params": sum(layer.weight.numel() for layer in model.linear_layers().values()),
            "linear_bytes": linear_storage_bytes(model, bits)}


class ModelArgs(BaseModel):
    """Which model to work on."""

    model_file: str = Field(FIXTURE, description="Path to a TinyLM .pt file in the session's work directory, or "
                            "'fixture' for the shipped model.")
    windows: int | None = Field(100, ge=1, description="Validation windows for perplexity (None = all).")


class OutputArgs(ModelArgs):
    out_file: str | None = Field(None, description="Where to save the compressed model (.pt), inside the session's "
                                 "work directory; not saved if None.")


class PruneArgs(OutputArgs):
    sparsity: float = Field(0.5, ge=0, lt=1, description="Fraction of weights set to zero in each layer.")
    method: Literal["wanda", "magnitude"] = "wanda"


class LowRankArgs(OutputArgs):
    ratio: float = Field(0.8, gt=0, le=1, description="Fraction of attention and MLP parameters kept.")
    method: Literal["a3", "svd", "whitened_svd"] = "a3"


class QuantArgs(OutputArgs):
    bits: int = Field(4, ge=2, le=8)
    method: Literal["twinquant", "rtn", "svd_rtn", "rotation_rtn"] = "twinquant"
    steps: int = Field(40, ge=0, le=2000, description="TwinQuant optimisation steps per layer.")


def _run_step(args: OutputArgs, step: Step, paths: HostPaths) -> dict:
    from numerics.fixture.model import save_model

    original = _model(args.model_file, paths)
    out_file = paths.writable(args.out_file) if args.out_file else None  # refused before any work is done
    model = copy.deepcopy(original)
    result = apply_step(model, step, quant_steps=getattr(args, "steps", 40))
    summary = summarise(model, original, step.label, args.windows, result.get("bits"))
    summary["perplexity_before"] = evaluate_perplexity(original, args.windows)
    if out_file:
        save_model(model, str(out_file))
        summary["saved_to"] = str(out_file)
    return {**summary, "layers": result["rows"]}


def _model(model_file: str, paths: HostPaths) -> Any:
    """The shipped fixture, or a model file ``paths`` lets tools read."""
    return load_lm(model_file if model_file == FIXTURE else str(paths.readable(model_file)))


def compress_sparse(model: Any) -> dict:
    """Every linear layer of ``model`` stored in MACKO format: round trip checked, bytes against fp16 and CSR."""
    import numpy as np

    from numerics.sparse.macko import compress, decompress
    from numerics.sparse.storage import storage_row

    rows = []
    for name, layer in model.linear_layers().items():
        weight = layer.weight.detach().half().numpy()
        exact = bool(np.array_equal(decompress(compress(weight)), weight))
        rows.append({"layer": name, "round_trip_exact": exact, **storage_row(weight)})
    dense, macko = sum(r["dense_fp16_bytes"] for r in rows), sum(r["macko_bytes"] for r in rows)
    return {"dense_fp16_bytes": dense, "macko_bytes": macko, "reduction": round(dense / macko, 3), "layers": rows}


class LayerErrorArgs(BaseModel):
    model_file: str = Field(description="The compressed model (.pt).")
    reference_file: str = Field(FIXTURE, description="The original model, default the shipped fixture.")


def make_compression_tools(paths: HostPaths | None = None) -> list[Tool]:
    """The compression tools; model files are read, and compressed models written, through ``paths`` (default:
    only the shipped fixture can be read and nothing written)."""
    paths = paths or HostPaths()

    def prune(args: PruneArgs) -> dict:
        """Prune every linear layer (Wanda |W|x||X|| or magnitude); perplexity and per-layer output error."""
        return _run_step(args, Step("prune", args.sparsity, args.method), paths)

    def lowrank(args: LowRankArgs) -> dict:
        """Low-rank compress (A^3 per QK/OV/MLP component, or per-matrix SVD baselines) at a parameter ratio."""
        return _run_step(args, Step("lowrank", args.ratio, args.method), paths)

    def quantise(args: QuantArgs) -> dict:
        """Quantise every linear layer (TwinQuant low-rank + 4-bit residual, or RTN/SVD/rotation baselines)."""
        return _run_step(args, Step("quant", args.bits, args.method), paths)

    def store_sparse(args: ModelArgs) -> dict:
        """Store every linear layer in MACKO format: exact round trip checked, bytes against dense fp16 and CSR."""
        return compress_sparse(_model(args.model_file, paths))

    def perplexity(args: ModelArgs) -> dict:
        """Byte-level perplexity of a model on the fixture's validation split (standard-library docstrings)."""
        return {"perplexity": evaluate_perplexity(_model(args.model_file, paths), args.windows)}

    def layer_error(args: LayerErrorArgs) -> dict:
        """Relative output error of each transformer block against the reference model's block."""
        return {"block_errors": block_errors(_model(args.model_file, paths), _model(args.reference_file, paths))}

    def tool(name: str, func, args: type[BaseModel], writes: bool = False) -> Tool:
        capabilities = ("compute", "read_files", *(("write_files",) if writes else ()))
        return Tool(name, func.__doc__ or name, args, func, group="numerics", capabilities=capabilities)

    return [
        tool("compression_prune", prune, PruneArgs, writes=True),
        tool("compression_store_sparse", store_sparse, ModelArgs),
        tool("compression_lowrank", lowrank, LowRankArgs, writes=True),
        tool("compression_quantise", quantise, QuantArgs, writes=True),
        tool("compression_perplexity", perplexity, ModelArgs),
        tool("compression_layer_error", layer_error, LayerErrorArgs),
    ]
