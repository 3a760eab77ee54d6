"""The shapes of what EvoKernel keeps and passes around, in one place.

Everything here is a ``TypedDict``: plain dicts at run time (so LangGraph checkpoints stay JSON-like
and small), with every field named and typed for a reader. ``TaskState`` is one task's progress in
the graph state; an attempt flows as ``Context`` (retrieve) -> ``Candidate`` (generate) ->
``Verdict`` (verify) -> ``AttemptRecord`` (learn), and leaves a ``HistoryItem`` in the task.
"""

from __future__ import annotations

from typing import Any, TypedDict


class StartPoint(TypedDict):
    """A feasible attempt that refinement may start from."""

    attempt: int
    latency_ms: float | None
    memory_id: int | None
    """Its trace in the experience memory (None for methods without memory)."""
    code_path: str
    params: dict[str, Any] | None
    """Template parameters (offline policy), None for model-written kernels."""
    bottleneck: str | None
    """The profiler's bottleneck pipe of this kernel."""
    profile: str | None
    roofline_fraction: float | None
    """Simulated roofline cycles over simulated cycles (1.0: at the bound)."""


class HistoryItem(TypedDict):
    """One finished attempt as the task's history (the report's learning curve reads it)."""

    attempt: int
    stage: str
    status: str
    feasible: bool
    latency_ms: float | None
    reference_ms: float | None
    """The eager baseline's latency for this task (simulated on npu)."""
    start_point: int | None
    reward: float


class TaskState(TypedDict):
    """One task's progress: where it is, what it found, what it tried."""

    name: str
    """The task's qualified name (e.g. ``L1/relu``)."""
    op_family: str
    shape_bucket: str
    stage: str
    """draft, refine, sample (pass@k) or done."""
    wave: int
    """The wave the task belongs to (0-based); a wave starts when every earlier one is done."""
    attempts: int
    last_status: str | None
    last_feedback: str
    last_code_path: str | None
    first_feasible_ms: float | None
    first_feasible_attempt: int | None
    best_ms: float | None
    best_attempt: int | None
    best_code_path: str | None
    reference_ms: float | None
    """The eager baseline's latency, from the verdict of the best kernel."""
    best_extras: dict[str, Any]
    """The verifier's extras of the best kernel (bottleneck, roofline fraction, cycles, simulated)."""
    compiled_any: bool
    start_points: list[StartPoint]
    tried: list[str]
    """Parameter keys the offline policy has proposed already (it never repeats one)."""
    history: list[HistoryItem]
    done_reason: str
    seconds: float
    """Wall seconds of the task's last verification (a round starts its slowest tasks first)."""


class Context(TypedDict, total=False):
    """What retrieve found for one task's next attempt (ids for the Q update included)."""

    stage: str
    signature: str
    """The state signature that keys the Q-values of this attempt."""
    q_ids: list[int]
    """Memory ids shown in the context: the Q update after the attempt goes to each."""
    items: list[str]
    hints: list[dict[str, Any]]
    """The metadata of every retrieved entry (what the offline policy reads)."""
    children: list[str]
    bottleneck_examples: list[str]
    api: list[str]
    start: StartPoint | None
    last: dict[str, Any] | None
    """The previous attempt's status, feedback and code."""
    guidance: str | None
    width: int
    """How many attempts the task makes this round (more than one when fewer tasks than workers are left)."""
    exhausted: bool
    """The offline policy has tried every neighbour of every start point: the task stops."""


class Proposal(TypedDict, total=False):
    """What the policy proposed for one attempt, and where its code lies."""

    attempt: int
    stage: str
    params: dict[str, Any] | None
    """Template parameters (offline policy), None for model-written kernels."""
    params_key: str | None
    template: str | None
    mutation: dict[str, Any] | None
    """The offline policy's move: ``{"param", "direction", "to"}``."""
    start_point: int | None
    """The attempt refined (its number), None for drafts and samples."""
    start_memory_id: int | None
    code_path: str


class Candidate(Proposal, total=False):
    """One proposed kernel, before and after it is written to the run's artifacts."""

    code: str | None
    """The solution source (None when the model's reply held no usable kernel)."""
    error: str | None


class Judgement(TypedDict):
    """The verifier's view of one candidate: the fields an attempt record keeps."""

    status: str
    feasible: bool
    compiled: bool
    latency_ms: float | None
    reference_ms: float | None
    bottleneck: str | None
    roofline_fraction: float | None
    profile: str
    feedback: str
    extras: dict[str, Any]


class Verdict(Judgement):
    """The verifier's judgement of one candidate, checkpoint-friendly."""

    simulated: bool
    seconds: float
    cached: bool
    """True when an identical earlier verification answered (see ``verdicts``)."""


class AttemptRecord(Proposal, Judgement, total=False):
    """An attempt as learn keeps it: the proposal, the judgement and the rewards."""

    reward: float
    seconds: float
    """Wall seconds the verification took (0 for a reply with no kernel)."""
    memory_id: int | None
    applied_reward: float | None
    q_update: dict[str, Any]


class Outcome(TypedDict, total=False):
    """What one task's attempt unit hands to learn: the candidate and its verdict, or why it stopped."""

    name: str
    slot: int
    """Which of the task's attempts of the round (0 unless the offline policy fills idle workers)."""
    candidate: Candidate
    verdict: Verdict
    context: Context
    stopped: str
