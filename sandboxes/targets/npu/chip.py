"""Hardware description of a simulated Ascend-style NPU: one documented config per chip.

Every number carries its source key from ``/work/shared/reference/ascend-910b-parameters.md``
(section 9 lists the keys) and its kind: **S** stated by the source, **D** derived (arithmetic
shown), **M** a model-fitted constant, **A** our own assumption where no public figure exists.
The defaults describe an Ascend 910B2 (Atlas A2, arch 2201). ``chips/*.toml`` describe others.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import Field

from sandboxes.errors import UserError
from sandboxes.settings import Config

CHIPS_DIR = Path(__file__).parent / "chips"


class VectorCost(Config):
    """Cost of one vector instruction: ``fixed + per_repeat * repeats`` cycles (256 B per repeat)."""

    per_repeat: float
    """Cycles per 256-byte repeat."""
    fixed: float
    """Start-up cycles of the instruction."""


def _vector_costs() -> dict[str, VectorCost]:
    return {
        "unary": VectorCost(per_repeat=1, fixed=24),       # [P2] M: Muls/Relu ≈1/repeat + 23–26
        "binary": VectorCost(per_repeat=2, fixed=22),      # [P2] M: Add/Mul/Max ≈2/repeat + 20–25
        "transcendental": VectorCost(per_repeat=2, fixed=32),  # [P2] M: Exp/Ln ≈2/repeat + 31–33
        "div": VectorCost(per_repeat=4, fixed=31),         # [P2] M: Div ≈4/repeat + 31
        "reduce": VectorCost(per_repeat=2, fixed=40),      # A: no public fit; tree pass ≈ binary op
        "cast": VectorCost(per_repeat=2, fixed=24),        # A: treated like a binary op
        "copy": VectorCost(per_repeat=1, fixed=20),        # A: UB→UB copy and Duplicate
        "gather": VectorCost(per_repeat=8, fixed=30),      # A: Gather reads one 32 B block per cycle
        "scan": VectorCost(per_repeat=8, fixed=40),        # A: CumSum ≈ log2(64 lanes) passes + carry
    }


class ChipConfig(Config):
    """One NPU: cores, clock, on-chip buffers, vector/cube/DMA costs. Defaults: Ascend 910B2."""

    name: str = "ascend910b2"
    """Chip name shown in reports."""
    clock_mhz: float = 1800.0
    """Core clock in MHz. [P4] S (910B2 cube_freq 1800 MHz; also [K1])."""
    aiv_cores: int = 48
    """Vector (AIV) cores. [P4] S, [K1] S."""
    aic_cores: int = 24
    """Cube (AIC) cores. [P4] S, [K1] S."""
    separated: bool = True
    """Separated mode: AIC and AIV are distinct cores that exchange data only through GM. [A1],[A3] S.
    When False (coupled, 910A), every core holds all buffers and ``aic_cores`` is the core count."""
    ub_bytes: int = 196352
    """Usable Unified Buffer per AIV core: 192 KiB − 256 B KFC reserve. [A7] S."""
    l1_bytes: int = 524032
    """Usable L1 per AIC core: 512 KiB − 256 B. [A6],[A7] S."""
    l0a_bytes: int = 65536
    """L0A per AIC core. [A6],[C1] S."""
    l0b_bytes: int = 65536
    """L0B per AIC core. [A6],[C1] S."""
    l0c_bytes: int = 131072
    """L0C per AIC core. [A2],[A6] S."""
    ub_align: int = 32
    """UB address alignment in bytes (one DataBlock). [H1],[A1] S."""
    l1_align: int = 32
    """L1 address alignment in bytes. [H1],[A1] S."""
    l0ab_align: int = 512
    """L0A/L0B address alignment (one fractal). [H1],[A8] S."""
    l0c_align: int = 1024
    """L0C address alignment required by Mmad's dst. [A8] S (the general rule is 64 B, [A1])."""
    max_buffers_per_position: int = 8
    """TQue buffers per TPosition (one event id each). [A8] S (4 on 910A)."""
    max_buffers_total: int = 64
    """TQue/TBuf buffers per kernel. [A8] S."""
    max_repeat: int = 255
    """Largest repeatTimes of a vector instruction (uint8). [H2],[A6] S."""
    vector_repeat_bytes: int = 256
    """Bytes processed per vector repeat: 8 DataBlocks × 32 B. [H2],[A8] S."""
    vector_costs: dict[str, VectorCost] = Field(default_factory=_vector_costs)
    """Per-class vector instruction costs. unary/binary/transcendental/div: [P2] M (910B3 fits);
    reduce/cast/copy/gather/scan: A (no public fit)."""
    reduce_half_penalty: float = 2.0
    """Extra factor on fp16 reductions ("slower in half than in float", [A2] S); the magnitude is A."""
    cube_head_cycles: float = 6.0
    """Fixed cycles per Mmad. [P2] M."""
    cube_float_factor: float = 2.0
    """Mmad cycles factor for fp32 inputs on top of the halved K step (total 1/4 rate). [P2] M, [A2] S."""
    hbm_bytes_per_cycle: float = 768.0
    """Chip-wide global-memory bandwidth in B/cycle shared by active cores: 32 B/cycle per core
    ([A7] S, GetCoreMemBw stub) × 24 cores = 768 B/cycle ≈ 1.38 TB/s at 1.8 GHz (D; [K1] says ~1.5 TB/s)."""
    dma_bytes_per_cycle: dict[str, float] = Field(default_factory=lambda: {
        "GM->UB": 58.6, "GM->L1": 78.4, "UB->GM": 109.4, "UB->UB": 594.0,
        "L1->L0A": 256.0, "L1->L0B": 128.0, "L0C->GM": 40.6, "GM->L0A": 58.6, "GM->L0B": 58.6})
    """Per-core peak of each copy path in B/cycle: pto-isa flat table GiB/s ÷ 1.85 GHz ([P1] M, D).
    GM->L0A/L0B reuse GM->UB (A)."""
    dma_latency_cycles: float = 213.0
    """Start-up latency of one DMA: K/peak of the fitted GM→UB curve, 30.6 KB ÷ 143 B/cycle ([P1] M, D)."""
    dma_burst_cycles: float = 2.0
    """Extra cycles per burst of a strided copy (blockCount > 1). A."""
    scalar_issue_cycles: float = 1.0
    """Scalar-unit cycles to issue one instruction to a pipe queue. A."""
    scalar_sync_cycles: float = 30.0
    """Scalar cycles of a GetValue/SetValue on local memory after the pipe drains. A."""
    launch_overhead_cycles: float = 10905.0
    """Fixed launch term per kernel, ≈ 5.9 µs at 1.85 GHz. [P4] M (FlashAttention trace fit)."""

    @property
    def hz(self) -> float:
        return self.clock_mhz * 1e6

    def cores_for(self, kernel_type: str) -> int:
        """How many physical cores run blocks of a kernel of this type."""
        if self.separated and kernel_type == "AIV_ONLY":
            return self.aiv_cores
        return self.aic_cores

    def buffer_capacity(self, buffer: str) -> int:
        return {"UB": self.ub_bytes, "L1": self.l1_bytes, "L0A": self.l0a_bytes,
                "L0B": self.l0b_bytes, "L0C": self.l0c_bytes}[buffer]

    def buffer_alignment(self, buffer: str) -> int:
        return {"UB": self.ub_align, "L1": self.l1_align, "L0A": self.l0ab_align,
                "L0B": self.l0ab_align, "L0C": self.l0c_align}[buffer]


def available_chips() -> list[str]:
    """Names accepted by :func:`load_chip`: the default plus every ``chips/*.toml``."""
    return ["ascend910b2"] + sorted(p.stem for p in CHIPS_DIR.glob("*.toml"))


def load_chip(spec: str | Path | None = None) -> ChipConfig:
    """A chip by name (``ascend910b2``, ``ascend910a``) or by the path of a TOML file."""
    if spec is None or spec == "ascend910b2":
        return ChipConfig()
    path = Path(spec)
    if not path.suffix:
        path = CHIPS_DIR / f"{spec}.toml"
    if not path.is_file():
        raise UserError(f"unknown NPU chip {spec!r}: use one of {available_chips()} or a TOML file path")
    try:
        return ChipConfig(**tomllib.loads(path.read_text()))
    except (tomllib.TOMLDecodeError, ValueError) as error:
        raise UserError(f"bad chip config {path}: {error}") from error
