"""A worker process: loads one model (the solution's ``ModelNew`` or the task's ``Model``) and runs it
on the trusted runner's command. Untrusted code runs here; the runner believes only what it can check
itself: the bytes of the output, the input region it shares with the worker, and its own clock.

The runner forks workers (:func:`run_worker`) before it reads the nonce. Everything a worker needs comes
over its socket (the config, the init seed and init inputs, the reference's source); it reads no file the
runner wrote, so a solution that rewrites files in the work dir cannot change what the reference sees.
The solution's worker confines itself (:mod:`.confine`) before it imports the solution.

Commands: ``layout`` (map the input and output regions sent with it), ``prep`` (refresh device copies,
flush caches), ``run`` (one call; ``trace`` turns the tripwire on), ``output`` (copy the last call's
output into the output region; reply its kind, shape, dtype, whether its storage overlaps an input, and
the tripwire's counts).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import io
import os
import socket
import sys
import time
import traceback
import types
from pathlib import Path
from typing import Any

import torch
import torch.utils.cpp_extension  # noqa: F401  (half a second: imported once, before the workers are forked)
from torch.nn.modules.batchnorm import _NormBase

from benchmarks.kernels.verifier.runner.confine import confine
from benchmarks.kernels.verifier.runner.inputs import map_region, overlapping_input, same_bits, stride_order, views
from benchmarks.kernels.verifier.runner.protocol import Channel, ChannelClosed
from benchmarks.kernels.verifier.runner.tripwire import Tripwire, trusted_roots
from sandboxes import linux
from sandboxes.targets import native

_perf_counter = time.perf_counter
_torch_load = torch.load
_no_grad = torch.no_grad
_Tensor = torch.Tensor


def load_module(path: str, name: str, source: str | None = None) -> types.ModuleType:
    """Execute a Python file (or ``source``, shown as ``path`` in tracebacks) as a fresh module ``name``."""
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    if source is None:
        with open(path) as handle:
            source = handle.read()
    exec(compile(source, path, "exec"), module.__dict__)
    return module


class Worker:
    """State of one worker: the model, the hooks, the input views, the last output and the tripwire."""

    def __init__(self, role: str, channel: Channel, start: dict[str, Any]) -> None:
        self.role = role
        self.channel = channel
        self.start_message = start
        self.config = start["config"]
        self.hooks = importlib.import_module(self.config["hooks"]).HOOKS
        self.model: Any = None
        self.host_inputs: list[Any] = []
        self.inputs: list[Any] = []
        self.output_region: Any = None
        self.last_output: Any = None
        self.tripwire: Tripwire | None = None
        self.own_state: list[tuple[_Tensor, _Tensor]] = []
        """The memory of the solution's own tensors, each with a copy made when it was built (none is to change in
        a call)."""
        self.handlers = {"layout": self.layout, "prep": self.prep, "run": self.run, "output": self.output}
        """Bound before the solution is imported: rebinding ``Worker.output`` from the solution's code (work done in
        the untimed hand-over, 5.9x with the static checks off) changes nothing here."""

    def load(self, confinement: dict[str, Any]) -> None:
        """Load the model; reply ready (with what confines this worker), need_build (with specs) or an error."""
        resolver = native.ExtensionResolver(_cache_dir(self.config), self.config["cache_salt"])
        if self.role == "solution":
            native.activate(resolver)
            module = load_module("solution.py", "solution")
            if resolver.pending:
                self.channel.send({"event": "need_build", "specs": [s.to_json() for s in resolver.pending]})
                return
            model_class = getattr(module, "ModelNew", None)
            if model_class is None:
                raise AttributeError("solution defines no class ModelNew")
        else:
            model_class = load_module("task.py", "task", self.start_message["task"]).Model
        init_inputs = _torch_load(io.BytesIO(self.start_message["blob"]), weights_only=True)
        torch.manual_seed(int(self.start_message["init_seed"]))
        self.model = model_class(*init_inputs)
        if hasattr(self.model, "to"):
            self.model = self.model.to(self.hooks.device)
        if self.role == "solution":
            self.own_state = [(memory, memory.clone()) for memory in own_memory(self.model)]
        self.channel.send({"event": "ready", "confinement": confinement})
        self.serve()

    def serve(self) -> None:
        """Answer commands until the runner goes away (or kills this worker)."""
        while True:
            message = self.channel.receive()
            try:
                reply = self.handlers[message["cmd"]](message)
            except Exception as error:  # report, keep serving: the runner decides the verdict (KeyError: no such command)
                self.channel.send({"ok": False, "error": _short_traceback(error),
                                   "status": self.hooks.classify_error(error)})
                continue
            self.channel.send(reply)

    def layout(self, message: dict[str, Any]) -> dict[str, Any]:
        """Map the input and output regions (the two descriptors sent with the message) and view the
        inputs in the first."""
        fds = message.get("fds") or []
        try:
            if len(fds) != 2:
                raise ValueError("layout needs an input and an output region descriptor")
            region = map_region(fds[0], int(message["nbytes"]))
            self.output_region = map_region(fds[1], int(message["output_bytes"]))
        finally:
            for fd in fds:
                os.close(fd)
        self.host_inputs = views(region, message["slots"])
        self.inputs = [self.hooks.to_device(x) if isinstance(x, _Tensor) else x for x in self.host_inputs]
        return {"ok": True}

    def prep(self, message: dict[str, Any]) -> dict[str, Any]:
        """Refresh device copies of the inputs from the region (same buffers, new values), flush caches."""
        for device, host in zip(self.inputs, self.host_inputs):
            if isinstance(device, _Tensor) and device is not host:
                device.copy_(host)
        self.hooks.flush_cache()
        self.hooks.synchronize()
        return {"ok": True}

    def call(self, synchronize: bool = True, model: Any = None) -> tuple[Any, dict[str, Any] | None]:
        """One forward pass of ``model`` (default: this worker's) through the hooks, synchronised unless a
        device timer brackets it."""
        model = self.model if model is None else model
        with _no_grad():
            if self.role == "solution":
                output, simulated = self.hooks.solution_call(model, self.inputs)
            else:
                output, simulated = self.hooks.reference_call(model, self.inputs)
            if isinstance(output, _Tensor):
                output = output.detach()  # inside the call, timed: all the hand-over does later is copy bytes
        if synchronize:
            self.hooks.synchronize()
        return output, simulated

    def run(self, message: dict[str, Any]) -> dict[str, Any]:
        """One call; device time and simulated timing come back for the runner to weigh."""
        self.last_output = None
        if message.get("trace"):
            self.tripwire = self.tripwire or Tripwire(trusted_roots(), self.hooks.host_casts_are_compute)
            self.last_output, simulated = self.call(model=Traced(self.model, self.tripwire))
            return {"ok": True, "device_ms": None, "simulated": simulated}
        timer = self.hooks.device_timer()
        if timer is None:
            self.last_output, simulated = self.call()
            return {"ok": True, "device_ms": None, "simulated": simulated}
        (self.last_output, simulated), device_ms = timer(lambda: self.call(synchronize=False))
        return {"ok": True, "device_ms": device_ms, "simulated": simulated}

    def output(self, message: dict[str, Any]) -> dict[str, Any]:
        """Copy the last output into the output region (unless it does not fit, or the message says ``copy: false``
        and it is in host memory: then its address and strides, for the runner to read it itself) and say what the
        runner cannot see from its bytes; device inputs are copied back into the input region so that the runner's
        mutation check covers them."""
        for device, host in zip(self.inputs, self.host_inputs):
            if isinstance(device, _Tensor) and device is not host:
                host.copy_(device)
        output, kind = self.last_output, _output_kind(self.last_output)
        reply = {"ok": True, "output_kind": kind, "overlap": None,
                 "tripwire": self.tripwire.report() if self.tripwire else None,
                 "own_state_changed": message.get("state", True) and
                 any(not same_bits(now, then) for now, then in self.own_state)}
        if kind != "tensor":
            return reply
        reply.update(overlap=overlapping_input(output, self.inputs), shape=list(output.shape),
                     dtype=str(output.dtype).removeprefix("torch."), order=stride_order(output))
        if not message.get("copy", True) and output.device.type == "cpu":  # the runner reads the bytes itself
            reply.update(address=output.data_ptr(), strides=list(output.stride()))
            return reply
        nbytes = output.numel() * output.element_size()
        if 0 < nbytes <= self.output_region.numel():
            started = time.thread_time_ns()
            flat = self.output_region[:nbytes].view(output.dtype).view(output.shape)
            flat.copy_(output.detach())
            reply["copy_cpu_ns"] = time.thread_time_ns() - started  # the reference's is believed (see cpu_account)
        return reply


class Traced:
    """The model with the tripwire on while it is called (and only then: what the hooks do around the call,
    e.g. the npu roofline building the task's model, is not traced); other attributes are the model's."""

    def __init__(self, model: Any, tripwire: Tripwire) -> None:
        self._model, self._tripwire = model, tripwire

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        with self._tripwire:
            output = self._model(*args, **kwargs)
        own = [*self._model.parameters(), *self._model.buffers()] if hasattr(self._model, "parameters") else []
        self._tripwire.after_call(output, [*args, *own])
        return output

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)


def own_tensors(model: Any) -> list[_Tensor]:
    """Every tensor the model holds, however deep: whatever it references (attributes, ``__slots__``, dict keys and
    values, list items, closure cells and defaults of functions it keeps) and the class attributes of its classes,
    through the garbage collector's own view of references. A kernel that wrote into one kept state between calls
    (a decoded matrix in a buffer, served to every later call) where no static rule sees it. Modules and functions'
    globals are not followed: a solution's module-level tensors are refused by the static checks."""
    found: dict[int, _Tensor] = {}
    seen: set[int] = set()
    stack: list[Any] = [model]
    while stack:
        value = stack.pop()
        if isinstance(value, _Tensor):
            found[id(value)] = value
            continue
        if id(value) in seen or isinstance(value, types.ModuleType):
            continue
        seen.add(id(value))
        if isinstance(value, type):
            if value.__module__ not in _LIBRARY_MODULES:
                stack += list(vars(value).values())
        elif isinstance(value, types.FunctionType):
            stack += [cell.cell_contents for cell in value.__closure__ or () if _filled(cell)]
            stack += [*(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values()]
        else:
            stack += gc.get_referents(value)
    return list(found.values())


_LIBRARY_MODULES = frozenset({"builtins", "torch.nn.modules.module", "abc", "typing"})
"""Classes whose attributes are the library's, not the solution's (an ``nn.Module`` subclass's bases end here)."""


def _filled(cell: types.CellType) -> bool:
    try:
        cell.cell_contents
    except ValueError:  # an empty cell
        return False
    return True


def own_memory(model: Any) -> list[_Tensor]:
    """The whole memory behind each of the model's own tensors, as bytes, once per allocation. A view shows part
    of its allocation: a kernel given ``torch.zeros(n).narrow(0, 0, 1)`` could keep state in the other n - 1
    elements, which a check of the view alone never reads. The running statistics of a normalisation layer in
    training mode are left out (see :func:`running_statistics`)."""
    found: dict[tuple, _Tensor] = {}
    running = running_statistics(model)
    for tensor in own_tensors(model):
        tensor = tensor.detach()
        try:
            storage = tensor.untyped_storage()
        except (RuntimeError, NotImplementedError):  # no plain storage (sparse, nested): its elements are all there is
            found[("tensor", id(tensor))] = tensor
            continue
        if storage.data_ptr() in running:
            continue
        whole = torch.empty(0, dtype=torch.uint8, device=tensor.device).set_(storage, 0, (storage.nbytes(),), (1,))
        found.setdefault((str(tensor.device), storage.data_ptr(), storage.nbytes()), whole)
    return list(found.values())


def running_statistics(model: Any) -> set[int]:
    """Where the running statistics of the model's normalisation layers in training mode lie (their storages' data
    pointers). Such a layer updates them on every call, as the task's own model does (KernelBench's models are in
    training mode: BatchNorm in 30 of its tasks), and its output never reads them: the torch baseline itself was
    refused for changing its own buffers."""
    modules = model.modules() if isinstance(model, torch.nn.Module) else ()
    layers = [m for m in modules if isinstance(m, _NormBase) and m.training and m.track_running_stats]
    buffers = [getattr(m, name) for m in layers for name in ("running_mean", "running_var", "num_batches_tracked")]
    return {b.untyped_storage().data_ptr() for b in buffers if isinstance(b, _Tensor)}


def _output_kind(output: Any) -> str:
    """``tensor`` for a plain, materialised, strided tensor; otherwise what is wrong with it."""
    if type(output) is not _Tensor:
        return f"not a plain torch.Tensor but {type(output).__module__}.{type(output).__qualname__}"
    if output.layout != torch.strided:
        return f"a tensor with layout {output.layout}"
    if output.is_meta:
        return "a meta tensor without data"
    if any(stride < 0 for stride in output.stride()):
        return "a tensor with a negative stride"
    if output.is_neg() or output.is_conj():
        return "a tensor with its negation or conjugation bit set (left to the untimed copy)"
    if overlaps_itself(output):
        return "a tensor whose elements share memory (an expanded or overlapping view, filled by the untimed copy)"
    return "tensor"


def overlaps_itself(tensor: torch.Tensor) -> bool:
    """True when two of its elements are one place in memory (a zero stride, or strides smaller than the dims
    inside them span)."""
    span = 1
    for stride, size in sorted((stride, size) for size, stride in zip(tensor.shape, tensor.stride()) if size > 1):
        if stride < span:
            return True
        span = stride * (size - 1) + span
    return False


def _short_traceback(error: BaseException, limit: int = 1500) -> str:
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__, limit=-4))
    return text if len(text) <= limit else "..." + text[-limit:]


def _cache_dir(config: dict[str, Any]) -> Path | None:
    return Path(config["cache_dir"]) if config.get("cache_dir") else None


MMAP_THRESHOLD, TRIM_THRESHOLD = 32 << 20, 1 << 30


def steady_allocator() -> None:
    """Fix glibc malloc's thresholds (the same in both workers, whatever they allocated before). Left dynamic, they
    follow the process's history: after one 64 MB block was freed, KernelBench's exclusive cumsum on a 2 MB input
    took 1.92 ms a call instead of 0.43 ms (its temporaries mapped and faulted in afresh every call), and the same
    code timed against itself came out anywhere from 0.26x to 3.7x from one evaluation to the next."""
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is not None:  # glibc
        mallopt(-3, MMAP_THRESHOLD)  # M_MMAP_THRESHOLD: blocks up to 32 MB (glibc's maximum) come from the heap
        mallopt(-1, TRIM_THRESHOLD)  # M_TRIM_THRESHOLD: and the heap is not handed back between calls


def run_worker(role: str, sock: socket.socket) -> int:
    """Body of a forked worker: wait for ``start``, confine the solution's worker, load and serve."""
    steady_allocator()
    channel = Channel(sock, accept_fds=True)
    start: dict[str, Any] = {}
    try:
        start = channel.receive()
        if start.get("cmd") != "start":
            return 0
        threads = int(start["config"].get("threads", 1))
        if role == "solution":  # the runner reads its output's bytes (/proc/<pid>/mem)
            linux.set_dumpable(True)
            with contextlib.suppress(OSError):  # then the worker copies its output, as before
                linux.allow_any_tracer()
        confinement = _confine(start["config"], threads) if role == "solution" else {}  # before any thread starts
        torch.set_num_threads(threads)
        Worker(role, channel, start).load(confinement)
    except ChannelClosed:
        return 0
    except BaseException as error:  # import or construction failed: tell the runner why
        _report_failure(channel, start.get("config") or {}, error)
        return 1
    return 0


def _confine(config: dict[str, Any], threads: int) -> dict[str, Any]:
    """Confine the solution's worker; where nothing is timed on a device, no process may start, nor a thread at one
    thread (a GPU's runtime starts its own threads and, for Triton, compilers)."""
    on_host = config.get("timing") != "device"
    try:
        return confine(threads > 1 if on_host else None)
    except OSError as error:
        return {"error": f"could not confine the solution's worker: {error}"}


def _report_failure(channel: Channel, config: dict[str, Any], error: BaseException) -> None:
    status = None
    try:
        status = importlib.import_module(config["hooks"]).HOOKS.classify_error(error)
    except Exception:
        pass
    try:
        channel.send({"event": "error", "error": _short_traceback(error), "status": status})
    except ChannelClosed:
        pass
