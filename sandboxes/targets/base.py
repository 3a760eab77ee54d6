"""The Target seam: where a kernel solution is compiled, checked and timed (cpu, gpu, npu, ...).

A solution is a Python file (KernelBench format: ``class ModelNew(nn.Module)``). It may build
native code at import time through ``torch.utils.cpp_extension.load_inline`` or
``sandboxes.targets.native.load_cpp``; the harness records those requests as
:class:`ExtensionSpec` objects and asks the target to :meth:`Target.build` them (cached by source
hash). The solution then runs in an untrusted worker process inside the sandbox, while a trusted
runner computes the reference, compares outputs and keeps the clock.

Two halves:

* :class:`Target` lives in the host process: availability, static rules, builds, runner settings.
* :class:`RuntimeHooks` lives inside the sandboxed worker processes (imported by dotted name from
  :attr:`RunnerSettings.hooks`): device placement, synchronisation, cache flushing, and, for
  simulated targets, the simulated time of a call and the target's own eager baseline.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from sandboxes.base import Sandbox


class TimingMode(str, Enum):
    """How a target's runtimes are measured."""

    WALL = "wall"
    """The trusted runner's own clock around each call (cpu)."""
    DEVICE = "device"
    """Device events inside the worker, cross-checked against the runner's wall clock (gpu)."""
    SIMULATED = "simulated"
    """Simulated cycles converted to ms by the target's hooks; rows are marked ``simulated``."""
    NONE = "none"
    """Not timed (e.g. "not timed: no GPU"); speedup is None."""


@dataclass(frozen=True)
class Availability:
    """What a target can do on this machine, with the reason for anything it cannot."""

    can_compile: bool
    can_run: bool
    can_time: bool
    reason: str = ""

    def require_compile(self) -> None:
        """Raise a UserError when this target cannot even compile here."""
        if not self.can_compile:
            from sandboxes.errors import UserError

            raise UserError(f"target cannot compile here: {self.reason}")


@dataclass(frozen=True)
class ExtensionSpec:
    """One native build request made by a solution at import time.

    ``kind`` is ``load_inline`` (torch C++/CUDA extension) or ``cpp`` (plain C++ loaded with
    ctypes). ``options`` holds the remaining keyword arguments as JSON-able values.
    """

    kind: str
    name: str
    cpp_sources: tuple[str, ...] = ()
    cuda_sources: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    extra_cflags: tuple[str, ...] = ()
    extra_cuda_cflags: tuple[str, ...] = ()
    extra_ldflags: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    def digest(self, salt: str = "") -> str:
        """Source hash (hex) that keys the build cache; ``salt`` adds toolchain identity."""
        payload = json.dumps({**asdict(self), "options": dict(self.options), "salt": salt}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:24]

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict that :meth:`from_json` turns back into the spec."""
        return {**asdict(self), "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "ExtensionSpec":
        """Rebuild a spec from :meth:`to_json` output (e.g. sent by a worker); unknown keys fail."""
        tuples = {k: tuple(str(v) for v in data.get(k, ())) for k in
                  ("cpp_sources", "cuda_sources", "functions", "extra_cflags", "extra_cuda_cflags", "extra_ldflags")}
        return cls(kind=str(data["kind"]), name=str(data["name"]), options=dict(data.get("options", {})), **tuples)


@dataclass(frozen=True)
class Violation:
    """One static-check finding: which rule, where, and what to change."""

    rule: str
    line: int
    message: str

    def __str__(self) -> str:
        """``[rule] line N: message``, the form agents see."""
        return f"[{self.rule}] line {self.line}: {self.message}"


StaticRule = Callable[[Any], "list[Violation]"]
"""A static rule takes the parsed solution (``ast.Module``) and returns its violations."""


@dataclass
class BuildOutcome:
    """The result of building one extension (or of checking that it compiles)."""

    ok: bool
    error: str = ""
    """Compiler output trimmed to the lines that matter (empty when ok)."""
    cached: bool = False
    seconds: float = 0.0
    loadable: bool = True
    """False when only a compile check was possible (CUDA without a GPU): nothing to run."""
    note: str = ""
    """Human-readable detail, e.g. "compiled with nvcc -c; not run: no GPU"."""
    rejected: bool = False
    """True when it compiled but the native check refused it (inline assembly, symbols off the allow-list);
    ``error`` then names the rule and the symbols, and nothing loadable is cached."""
    transient: bool = False
    """True when the build failed for the machine's reasons, not the source's (a timeout, memory, a full host
    file table, a sandbox failure): never cached, so the next attempt builds again."""


@dataclass
class RunnerSettings:
    """How the trusted runner must drive this target's worker processes."""

    hooks: str
    """Dotted module path of the :class:`RuntimeHooks` implementation (module attr ``HOOKS``)."""
    timing: TimingMode
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment for the runner and workers (e.g. TRITON_INTERPRET=1, OMP_NUM_THREADS)."""
    not_timed_reason: str = ""
    """Why timing is off, shown in the row's reason (e.g. "not timed: no GPU")."""
    baseline: str = "torch-eager"
    """Name of what the reference time measures: torch eager, or the target's own eager baseline."""
    cache_salt: str = ""
    """Toolchain identity mixed into extension digests (must match what :meth:`Target.build` uses)."""
    shapes: str = "cpu"
    """Which task shapes to use: ``cpu`` (module constants) or ``gpu`` (the task's GPU_SHAPES)."""


class Target(ABC):
    """A place to compile, check and time kernels. Host-side half of the seam."""

    name: str = ""
    simulated: bool = False
    """True when timings are simulated; every row then carries ``simulated: true``."""
    solution_language: str = ""
    """Short description of what a solution may contain, shown to agents (prompt text)."""
    kernel_languages: tuple[str, ...] = ("native",)
    """How solutions write kernels here, for the static allow-list: ``native`` (load_cpp / load_inline C++ and
    CUDA), ``triton``, ``npu`` (the simulated kernel language)."""

    @abstractmethod
    def availability(self) -> Availability:
        """Report whether this machine can compile, run and time kernels for this target."""

    @abstractmethod
    def runner_settings(self) -> RunnerSettings:
        """Hooks module, timing mode, environment and baseline name for the trusted runner."""

    def static_rules(self) -> Sequence[StaticRule]:
        """Extra AST rules for this target's solutions, run after the harness's own catalogue."""
        return ()

    def allowed_modules(self) -> Sequence[str]:
        """Extra top-level modules a solution may import on this target (e.g. its DSL package)."""
        return ()

    @abstractmethod
    def build(self, spec: ExtensionSpec, sandbox: Sandbox) -> BuildOutcome:
        """Compile ``spec`` inside ``sandbox`` into the build cache (or reuse the cached build)."""

    def cache_dir(self) -> Path | None:
        """Directory of built artifacts the workers read (mounted read-only), or None."""
        return None

    def row_extras(self, timing_extras: Mapping[str, Any]) -> dict[str, Any]:
        """Turn the hooks' timing extras into row fields (e.g. cycles, bottleneck, roofline_fraction)."""
        return dict(timing_extras)


class RuntimeHooks:
    """Worker-side half of the seam; the default is plain CPU execution. Runs inside the sandbox."""

    device: str = "cpu"
    host_casts_are_compute: bool = False
    """True where the clock sees only kernels (a simulated chip): a dtype-changing copy in ``forward`` is then
    uncharged compute (an input halved to float16 on the host, read at half the bytes), refused by the tripwire."""

    def to_device(self, value: Any) -> Any:
        """Move a tensor (or a list/tuple of them) to this target's device."""
        return _map_tensors(value, lambda t: t.to(self.device))

    def synchronize(self) -> None:
        """Wait until queued device work is done (no-op on CPU)."""

    def flush_cache(self) -> None:
        """Evict caches between timed trials (GPU: L2) so each trial starts cold."""

    def solution_call(self, model: Any, inputs: Sequence[Any]) -> tuple[Any, dict[str, Any] | None]:
        """Run the solution once; return (output, simulated timing dict or None)."""
        return model(*inputs), None

    def reference_call(self, model: Any, inputs: Sequence[Any]) -> tuple[Any, dict[str, Any] | None]:
        """Run the baseline once; a target with its own eager baseline overrides this."""
        return model(*inputs), None

    def device_timer(self) -> Callable[[Callable[[], Any]], tuple[Any, float]] | None:
        """A function timing one call with device events (returns (result, ms)), or None."""
        return None

    def classify_error(self, error: BaseException) -> str | None:
        """Map a target-specific exception to a status (e.g. ``compile_error``), or None."""
        return None


def _map_tensors(value: Any, fn: Callable[[Any], Any]) -> Any:
    import torch

    if isinstance(value, torch.Tensor):
        return fn(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_map_tensors(v, fn) for v in value)
    return value
