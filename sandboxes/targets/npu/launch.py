"""Kernel declaration and launch: run every block functionally, then combine the per-core timelines.

Timing of a launch (all simulated):

* Blocks go round-robin onto the cores of the kernel's type (AIV or AIC cores on a separated chip);
  a core runs its blocks one after another.
* The ``active`` cores (min(block_dim, cores)) share global memory: each GM copy runs at
  min(path peak, chip GM bandwidth / active) bytes per cycle.
* cycles = launch overhead + max(slowest core, total GM bytes / chip GM bandwidth); the second
  term keeps any kernel at or above the bandwidth bound even when the per-core shares are uneven.
"""

from __future__ import annotations

import contextlib
import contextvars
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
from threadpoolctl import threadpool_limits

from sandboxes.targets.npu.chip import ChipConfig
from sandboxes.targets.npu.errors import NpuKernelError, ParamError
from sandboxes.targets.npu.profile import LaunchProfile, Profile
from sandboxes.targets.npu.runtime import (CoreContext, GmAddr, LaunchState, enter_core, gm_array, gm_key, inside_kernel,
                                           leave_core)
from sandboxes.targets.npu.tiling import TilingData, device_copy
from sandboxes.targets.npu.timeline import PIPES, CoreTimeline

KERNEL_TYPES = ("AIV_ONLY", "AIC_ONLY", "MIX")

_CAPTURE: contextvars.ContextVar[list | None] = contextvars.ContextVar("npu_capture", default=None)
_CHIP: contextvars.ContextVar[ChipConfig | None] = contextvars.ContextVar("npu_chip", default=None)


def kernel(fn: Callable | None = None, *, core_type: str = "AIV_ONLY"):
    """Mark a function as a kernel (``__global__ __aicore__``); ``core_type`` picks the cores it runs on."""
    if core_type not in KERNEL_TYPES:
        raise ParamError(f"core_type must be one of {KERNEL_TYPES}, got {core_type!r}")

    def mark(function: Callable) -> Callable:
        function.__npu_kernel_type__ = core_type
        return function
    return mark(fn) if fn is not None else mark


def current_chip() -> ChipConfig:
    return _CHIP.get() or ChipConfig()


class Launches(list):
    """The profiles a capture collected, plus ``failed``: the launches that raised (each as its error's text), so a
    call whose code swallowed a launch's error (a ``finally: return``) is not counted by its other launches."""

    def __init__(self) -> None:
        super().__init__()
        self.failed: list[str] = []


@contextlib.contextmanager
def capture(chip: ChipConfig | None = None) -> Iterator[Launches]:
    """Collect the profile of every launch in this block (a forward pass); optionally pick the chip."""
    launches = Launches()
    token, chip_token = _CAPTURE.set(launches), _CHIP.set(chip or current_chip())
    try:
        yield launches
    finally:
        with contextlib.suppress(ValueError):  # closed from another context (a block's, gone with the block)
            _CAPTURE.reset(token)
            _CHIP.reset(chip_token)


def launch(kernel_fn: Callable, block_dim: int, *args, chip: ChipConfig | None = None,
           trace: bool = False) -> LaunchProfile:
    """``kernel<<<block_dim>>>(args)``: run it on the simulated chip and return its profile.

    The capture that counts this launch is the one open when it starts (a launch that raises is written down in it
    as failed); each block runs in a copy of the caller's context, so nothing a kernel does to the simulator's
    context (a capture or chip of its own) outlives the block, and a kernel cannot launch another."""
    captured = _CAPTURE.get()
    try:
        return _launch(kernel_fn, block_dim, args, chip, trace, captured)
    except BaseException as error:
        if isinstance(captured, Launches):
            captured.failed.append(f"{getattr(kernel_fn, '__name__', 'kernel')}: {type(error).__name__}: {error}")
        raise


def _launch(kernel_fn: Callable, block_dim: int, args: tuple, chip: ChipConfig | None, trace: bool,
            captured: list | None) -> LaunchProfile:
    if inside_kernel():
        raise ParamError("launch() inside a kernel: launch kernels from the host code (forward), one after another")
    chip = chip or current_chip()
    kernel_type = getattr(kernel_fn, "__npu_kernel_type__", None)
    if kernel_type is None:
        raise ParamError(f"{getattr(kernel_fn, '__name__', kernel_fn)!r} is not a kernel: decorate it with @kernel")
    if not isinstance(block_dim, int) or not 1 <= block_dim <= 65535:
        raise ParamError(f"block_dim must be an integer in [1, 65535], got {block_dim!r}")
    cores = chip.cores_for(kernel_type)
    active = min(block_dim, cores)
    core_ends = [0.0] * cores
    results = []
    host = _host_args(args)
    shared = LaunchState()
    # small per-instruction matmuls: BLAS threads only add contention; overflow gives inf/nan silently
    with threadpool_limits(1, "blas"), np.errstate(all="ignore"):
        for block in range(block_dim):
            core = CoreContext(chip, block, block_dim, kernel_type, chip.hbm_bytes_per_cycle / active,
                               CoreTimeline(chip.scalar_issue_cycles, trace), launch=shared)
            contextvars.copy_context().run(_run_block, kernel_fn, core, _device_args(host))
            core_ends[block % cores] += core.timeline.end
            results.append(core)
    profile = _combine(kernel_fn.__name__, chip, block_dim, active, max(core_ends), results)
    if captured is not None:
        captured.append(profile)  # the count keeps this object; the caller gets its own copy to read
        return replace(profile, busy=dict(profile.busy), events=[list(core) for core in profile.events])
    return profile


def _host_args(args) -> list:
    """The kernel's arguments, each tensor checked and seen as a flat GM array once per launch; two tensors may be
    one buffer, but not overlap otherwise (the simulator orders a buffer's reads and writes by where it starts)."""
    host = [arg if isinstance(arg, (TilingData, bool, int, float)) else gm_array(arg) for arg in args]
    spans = sorted({(gm_key(a), gm_key(a) + a.nbytes) for a in host if isinstance(a, np.ndarray) and a.nbytes})
    for (start, end), (next_start, next_end) in zip(spans, spans[1:]):
        if next_start < end:
            raise ParamError("two GM arguments of this launch overlap without being one buffer: pass the tensor "
                             "once and offset into it (x[offset])")
    return host


def _device_args(host: list) -> list:
    """One block's arguments: its own copy of each TilingData and its own GM address (a fresh view) per tensor."""
    out = []
    for arg in host:
        if isinstance(arg, TilingData):
            out.append(device_copy(arg))
        elif isinstance(arg, np.ndarray):
            out.append(GmAddr(arg.view()))
        else:
            out.append(arg)
    return out


def _run_block(kernel_fn: Callable, core: CoreContext, args: list) -> None:
    token = enter_core(core)
    try:
        kernel_fn(*args)
    except NpuKernelError as error:
        raise type(error)(f"block {core.block_idx}: {error}") from error
    except (TypeError, ValueError, IndexError, KeyError, AttributeError, ArithmeticError, MemoryError) as error:
        api = _refusing_call(error)
        if api is None:
            raise
        raise ParamError(f"block {core.block_idx}: {api} cannot take these arguments "
                         f"({type(error).__name__}: {error})") from error
    finally:
        core.retire()
        leave_core(token)


SIMULATOR = Path(__file__).resolve().parent


def _refusing_call(error: BaseException) -> str | None:
    """The kernel-language call in which an error the simulator did not phrase was raised (a mask of three words,
    a float block count): the first API name (``Adds``, ``TQue.__init__``) below the last call from the kernel's
    own code into the simulator. None when the error arose in the kernel's own code."""
    frames = [frame for frame, _ in traceback.walk_tb(error.__traceback__)]
    inside = [Path(frame.f_code.co_filename).resolve().is_relative_to(SIMULATOR) for frame in frames]
    entries = [i for i in range(1, len(frames)) if inside[i] and not inside[i - 1]]
    if not entries:
        return None
    names = [_api_name(frame) for frame, within in zip(frames[entries[-1]:], inside[entries[-1]:]) if within]
    return next((name for name in names if name[:1].isupper()), names[0])


def _api_name(frame) -> str:
    """A simulator function's name; an instruction made by a factory (``_binary("Add", ...)``) goes by the name
    the factory gave it."""
    given = frame.f_locals.get("name") if frame.f_code.co_name == "instruction" else None
    return given if isinstance(given, str) else frame.f_code.co_qualname


def _combine(name: str, chip: ChipConfig, block_dim: int, active: int, makespan: float,
             cores: list[CoreContext]) -> LaunchProfile:
    gm_read = sum(c.gm_read for c in cores)
    gm_write = sum(c.gm_write for c in cores)
    floor = (gm_read + gm_write) / chip.hbm_bytes_per_cycle
    return LaunchProfile(
        kernel=name, chip=chip.name, clock_mhz=chip.clock_mhz, block_dim=block_dim, active_cores=active,
        cycles=chip.launch_overhead_cycles + max(makespan, floor), makespan_cycles=makespan,
        bandwidth_floor_cycles=floor, launch_cycles=chip.launch_overhead_cycles,
        busy={p: sum(c.timeline.busy[p] for c in cores) for p in PIPES},
        gm_read_bytes=gm_read, gm_write_bytes=gm_write, local_bytes=sum(c.local_bytes for c in cores),
        instructions=sum(c.timeline.instructions for c in cores), hbm_bytes_per_cycle=chip.hbm_bytes_per_cycle,
        events=[c.timeline.events for c in cores] if cores and cores[0].timeline.trace else [])


def profile_of(launches: list[LaunchProfile]) -> Profile:
    return Profile(list(launches))
