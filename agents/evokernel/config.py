"""EvoKernel's configuration: the method, the budget, the workers and every constant of the method."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from benchmarks.kernels.kernelbench import ShapeScaling
from benchmarks.kernels.verifier.harness import EvalConfig
from memory.qmemory import QMemoryConfig
from sandboxes.settings import Config

Method = Literal["evokernel", "evokernel-noq", "refine", "pass@k"]
METHODS: tuple[str, ...] = ("evokernel", "evokernel-noq", "refine", "pass@k")


class EvoKernelConfig(Config):
    """One EvoKernel run: which tasks, where, with which method and budget."""

    target: str = "npu"
    """Kernel target: npu (simulated Ascend-style chip), gpu or cpu."""
    tasks: str = "builtin:L1"
    """Task selector: builtin:L1, builtin:L1:relu,softmax, a KernelBench folder, or several joined with '+'."""
    method: Method = "evokernel"
    """evokernel (Q-memory), evokernel-noq (similarity-only retrieval), refine (feedback, no memory),
    pass@k (independent samples)."""
    budget: int = Field(30, ge=1)
    """T: attempts per task, shared by the draft and refine stages."""
    workers: int = Field(2, ge=1)
    """Tasks attempted in parallel (model calls and verifications); all share one memory."""
    memory: str | None = None
    """SQLite file of the experience memory, shared across tasks and runs (default:
    <runs root>/memory/evokernel-<target>.sqlite). Methods without memory ignore it."""
    qmemory: QMemoryConfig = Field(default_factory=QMemoryConfig)
    """Retrieval and Q-learning constants (alpha, epsilon, q_init, lambda, N, selection, PopArt, embedding)."""
    children_top_n: int = 2
    """Refine stage: how many children of the start point are shown."""
    bottleneck_top_n: int = 2
    """Refine stage: how many examples matched to the profiler's bottleneck are shown."""
    start_point_epsilon: float | None = None
    """Epsilon of the start-point choice in refine (None: the memory's epsilon)."""
    summarise_with_model: bool = True
    """Ask the model to summarise each attempt into an experience (else a templated summary)."""
    feedback_chars: int = 1500
    """Verifier feedback shown to the model is cut to this many characters."""
    entry_chars: int = 2500
    """Each memory item shown to the model is cut to this many characters."""
    offline_patience: int | None = 4
    """Offline policy: stop refining a task after this many refinements in a row without a new best
    (None: refine until the budget or the parameter neighbourhood is spent). Model runs spend the budget."""
    roofline_stop: float | None = Field(0.99, gt=0)
    """Stop refining a task once its best kernel reaches this fraction of the roofline (simulated on npu):
    at 0.99 no kernel can be more than about 1% faster. None: never stop for this reason."""
    waves: int = Field(1, ge=1)
    """Split the tasks, in an order shuffled by ``seed``, into this many waves: a wave starts when the one
    before it is done, so later tasks retrieve what earlier ones wrote. 1: every task at once."""
    carry_memory: bool = True
    """Later waves retrieve what earlier waves wrote. False: every wave starts from the memory as the run
    found it (the no-carry-over control of `agent bench evokernel`)."""
    verdict_cache: bool = True
    """On a simulated target, answer a candidate verified before (same task, solution source, target
    configuration, verifier settings and verifier code) from <runs root>/cache/evokernel-verdicts.sqlite."""
    evaluation: EvalConfig | None = None
    """How the harness verifies and times each attempt (None: the harness defaults)."""
    executor: str | None = None
    """Where verifications run: local (this process), ray (the Ray cluster at RAY_ADDRESS, else a new local
    instance) or ray://HOST:PORT; None: AGENT_EXECUTOR, else local. The graph, the model calls and the memory
    writes stay in this process either way."""
    shapes: ShapeScaling = Field(default_factory=ShapeScaling)
    """Shrink the tasks' size constants first (KernelBench files: --shape-scale, --max-input-mb)."""
    pause_every: int | None = Field(None, ge=1)
    """Pause at an interrupt after every this many rounds (one attempt per active task each) for a new
    budget or guidance (`agent chat --attach RUN_ID`, or `agent runs resume RUN_ID --answer JSON`)."""
    seed: int = 0
    """Seed of the offline policy and of retrieval's epsilon-greedy draws (per task and attempt)."""
