"""A worker process: loads one model (the solution's ``ModelNew`` or the task's ``Model``) and runs it
on the trusted runner's command. Untrusted code runs here; the runner only believes files and
times it can check itself.

The runner forks workers (:func:`run_worker`) in its work dir before it reads the nonce.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
import traceback
import types
from pathlib import Path
from typing import Any

import torch

from benchmarks.kernels.verifier.runner.protocol import Channel, ChannelClosed
from sandboxes.targets import native

_perf_counter = time.perf_counter
_torch_save = torch.save
_torch_load = torch.load
_torch_equal = torch.equal
_no_grad = torch.no_grad
_Tensor = torch.Tensor


def load_module(path: str, name: str) -> types.ModuleType:
    """Execute a Python file as a fresh module named ``name``."""
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    with open(path) as handle:
        exec(compile(handle.read(), path, "exec"), module.__dict__)
    return module


class Worker:
    """State of one worker: the model, the hooks, the timing buffers and the last output."""

    def __init__(self, role: str, channel: Channel, config: dict[str, Any]) -> None:
        self.role = role
        self.channel = channel
        self.config = config
        self.hooks = importlib.import_module(config["hooks"]).HOOKS
        self.model: Any = None
        self.sets: list[list[Any]] = []
        self.work: list[Any] = []
        self.last_output: Any = None

    def start(self) -> None:
        """Load the model; reply ready, need_build (with specs) or an error."""
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
            model_class = load_module("task.py", "task").Model
        init_inputs = _torch_load("init.pt", weights_only=True)
        torch.manual_seed(self.config["init_seed"])
        self.model = model_class(*init_inputs)
        if hasattr(self.model, "to"):
            self.model = self.model.to(self.hooks.device)
        self.channel.send({"event": "ready"})
        self.serve()

    def call(self, inputs: list[Any], synchronize: bool = True) -> tuple[Any, dict[str, Any] | None]:
        """One forward pass through the hooks, synchronised unless a device timer brackets it."""
        with _no_grad():
            if self.role == "solution":
                output, simulated = self.hooks.solution_call(self.model, inputs)
            else:
                output, simulated = self.hooks.reference_call(self.model, inputs)
        if synchronize:
            self.hooks.synchronize()
        return output, simulated

    def serve(self) -> None:
        """Answer commands until ``exit`` or until the runner goes away."""
        handlers = {"check": self.check, "load_sets": self.load_sets, "prep": self.prep, "run": self.run,
                    "save_last": self.save_last}
        while True:
            message = self.channel.receive()
            if message.get("cmd") == "exit":
                return
            try:
                reply = handlers[message["cmd"]](message)
            except Exception as error:  # report, keep serving: the runner decides the verdict
                reply = {"ok": False, "error": _short_traceback(error), "status": self.hooks.classify_error(error)}
            self.channel.send(reply)

    def check(self, message: dict[str, Any]) -> dict[str, Any]:
        """Correctness trial: run on the given inputs, save the output, report input mutation (and, on a
        simulated target, the simulated timing of the call)."""
        inputs = self.hooks.to_device(list(_torch_load(message["inputs"], weights_only=True)))
        before = [x.clone() if isinstance(x, _Tensor) else x for x in inputs]
        output, simulated = self.call(inputs)
        changed = [i for i, (a, b) in enumerate(zip(before, inputs))
                   if isinstance(a, _Tensor) and not _same(a, b)]
        kind = _output_kind(output)
        if kind == "tensor":
            _torch_save(output.detach().to("cpu").contiguous().clone(), message["output"])
        return {"ok": True, "inputs_changed": changed, "output_kind": kind, "simulated": simulated}

    def load_sets(self, message: dict[str, Any]) -> dict[str, Any]:
        """Load the timing input sets; the working buffers are refilled from them before each trial."""
        self.sets = [self.hooks.to_device(list(_torch_load(p, weights_only=True))) for p in message["paths"]]
        self.work = [x.clone() if isinstance(x, _Tensor) else x for x in self.sets[0]]
        return {"ok": True}

    def prep(self, message: dict[str, Any]) -> dict[str, Any]:
        """Refill the working inputs from set ``set`` (same buffers, new values) and flush caches."""
        for buffer, source in zip(self.work, self.sets[message["set"]]):
            if isinstance(buffer, _Tensor):
                buffer.copy_(source)
        self.hooks.flush_cache()
        self.hooks.synchronize()
        return {"ok": True}

    def run(self, message: dict[str, Any]) -> dict[str, Any]:
        """One timed call; device time and simulated timing come back for the runner to weigh."""
        timer = self.hooks.device_timer()
        if timer is None:
            self.last_output, simulated = self.call(self.work)
            device_ms = None
        else:
            (self.last_output, simulated), device_ms = timer(lambda: self.call(self.work, synchronize=False))
        return {"ok": True, "device_ms": device_ms, "simulated": simulated}

    def save_last(self, message: dict[str, Any]) -> dict[str, Any]:
        """Save the output of the previous timed call for re-checking."""
        kind = _output_kind(self.last_output)
        if kind == "tensor":
            _torch_save(self.last_output.detach().to("cpu").contiguous().clone(), message["output"])
        return {"ok": True, "output_kind": kind}


def _same(a: Any, b: Any) -> bool:
    """Bitwise equality (so NaNs compare equal to themselves)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return bool(_torch_equal(a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8)))


def _output_kind(output: Any) -> str:
    """``tensor`` for a plain, materialised, strided tensor; otherwise what is wrong with it."""
    if type(output) is not _Tensor:
        return f"not a plain torch.Tensor but {type(output).__module__}.{type(output).__qualname__}"
    if output.layout != torch.strided:
        return f"a tensor with layout {output.layout}"
    if output.is_meta:
        return "a meta tensor without data"
    return "tensor"


def _short_traceback(error: BaseException, limit: int = 1500) -> str:
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__, limit=-4))
    return text if len(text) <= limit else "..." + text[-limit:]


def _cache_dir(config: dict[str, Any]) -> Path | None:
    return Path(config["cache_dir"]) if config.get("cache_dir") else None


def run_worker(role: str, read_fd: int, write_fd: int) -> int:
    """Body of a forked worker: wait for ``start``, then load the model and serve; the exit code."""
    channel = Channel(read_fd, write_fd)
    config: dict[str, Any] = {}
    try:
        if channel.receive().get("cmd") != "start":
            return 0
        with open("config.json") as handle:
            config = json.load(handle)
        torch.set_num_threads(int(config.get("threads", 1)))
        Worker(role, channel, config).start()
    except ChannelClosed:
        return 0
    except BaseException as error:  # import or construction failed: tell the runner why
        _report_failure(channel, config, error)
        return 1
    return 0


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
