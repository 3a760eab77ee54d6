"""The runtime tripwire: which ATen operators the solution's own code ran during ``forward``.

A ``TorchDispatchMode`` sees every ATen call that reaches the dispatcher, from Python or from C++ (an
extension calling ``at::relu`` shows up too). Each call is attributed to the innermost Python frame
outside torch itself: calls made by trusted code (our packages, e.g. the NPU simulator and the target
hooks, and Triton's interpreter) are not the solution's. The solution's own calls may only allocate,
fill an allocation, make views, copy and query metadata (:data:`ALLOWED`); anything else is compute
done by the framework, which the runner refuses with the operator names and where they were called.
It traces the untimed correctness calls only (a dispatch mode costs microseconds per operator, which
would bias the timed calls against the solution).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections import Counter
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from benchmarks.kernels.verifier.runner.inputs import contiguous_strides, is_dense, stride_order

ALLOWED = frozenset({
    # allocation and initialisation of an allocation
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "zeros", "zeros_like", "new_zeros",
    "ones", "ones_like", "new_ones", "full", "full_like", "new_full", "scalar_tensor", "fill_", "zero_", "resize_",
    # views and aliases
    "view", "_unsafe_view", "reshape", "_reshape_alias", "as_strided", "as_strided_", "t", "transpose", "permute",
    "expand", "expand_as", "squeeze", "unsqueeze", "select", "slice", "narrow", "split", "split_with_sizes",
    "chunk", "unbind", "alias", "detach", "lift_fresh", "view_as", "flatten", "unflatten", "movedim", "diagonal",
    "unfold", "view_as_real", "view_as_complex", "real", "imag", "contiguous",
    # copies (a dtype-changing copy is judged by the precision check)
    "copy_", "clone", "_to_copy", "to", "_copy_from", "_copy_from_and_resize",
    # metadata and scalar reads
    "sym_size", "sym_stride", "sym_numel", "sym_storage_offset", "is_contiguous", "_local_scalar_dense",
    "is_same_size", "is_nonzero", "dim", "size", "stride", "numel",
})
MAX_SITES = 8
COPIES = frozenset({"copy_", "clone", "_to_copy", "_copy_from", "_copy_from_and_resize"})
"""Copies are allowed as plain data movement (a pointer for a kernel, a dtype change); one that reorders the
elements in memory (``.to(memory_format=channels_last)``, a transposed view made contiguous) is compute."""
REORDERING_FORMATS = frozenset({torch.channels_last, torch.channels_last_3d})


def reorders(name: str, args: tuple, kwargs: dict[str, Any]) -> bool:
    """True when the copy ``name`` puts elements in a different order of memory than its source has."""
    if name in ("clone", "_to_copy"):
        source, memory_format = args[0], kwargs.get("memory_format")
        if memory_format in REORDERING_FORMATS:
            return True
        if memory_format is torch.contiguous_format and stride_order(source) != sorted(stride_order(source)):
            return True
        if memory_format is not torch.contiguous_format and is_dense(source):
            return False  # the copy keeps the source's strides
        return gathers(source, contiguous_strides(source.shape))
    source, target = (args[1], args[0]) if name == "copy_" else (args[0], args[1])
    if not isinstance(source, torch.Tensor) or not isinstance(target, torch.Tensor):
        return False
    try:
        source = source.expand(target.shape)
    except RuntimeError:
        return False
    both = {d for d in range(target.dim()) if source.stride(d) and target.stride(d) and target.shape[d] > 1}
    if [d for d in stride_order(source) if d in both] != [d for d in stride_order(target) if d in both]:
        return True
    return gathers(source, target.stride())


def casts(name: str, args: tuple, kwargs: dict[str, Any]) -> bool:
    """True when the copy ``name`` writes another dtype than its source's."""
    if name != "_to_copy":
        source, target = (args[1], args[0]) if name == "copy_" else (args[0], args[1] if len(args) > 1 else None)
        return isinstance(source, torch.Tensor) and isinstance(target, torch.Tensor) and source.dtype != target.dtype
    dtype = kwargs.get("dtype")
    return isinstance(args[0], torch.Tensor) and dtype is not None and dtype != args[0].dtype


def gathers(source: torch.Tensor, target_strides: tuple[int, ...] | list[int]) -> bool:
    """True when a copy's neighbouring elements along the target's innermost dim are not neighbours in memory on
    one side (a strided column made contiguous, or rows scattered into columns): element-wise gathering, the work
    of a transpose done one slice at a time."""
    dims = [d for d in range(source.dim()) if source.shape[d] > 1 and source.stride(d) and target_strides[d]]
    if not dims:
        return False
    inner = min(dims, key=lambda d: (target_strides[d], -d))
    return source.stride(inner) != 1 or target_strides[inner] != 1


def trusted_roots() -> tuple[str, ...]:
    """Folders whose code is ours or the toolchain's (the snapshot's packages, Triton)."""
    roots = []
    for name in ("sandboxes", "benchmarks", "triton"):
        spec = importlib.util.find_spec(name)
        roots += [os.path.realpath(path) + os.sep for path in (spec.submodule_search_locations or [])] if spec else []
    return tuple(roots)


class Tripwire(TorchDispatchMode):
    """Counts the solution's ATen calls by operator, and where the forbidden ones came from."""

    def __init__(self, trusted: tuple[str, ...], casts_are_compute: bool = False) -> None:
        """``casts_are_compute``: a copy that changes the dtype is compute (where the clock sees only kernels)."""
        super().__init__()
        self.trusted = trusted
        self.casts_are_compute = casts_are_compute
        self.transparent = os.path.realpath(os.path.dirname(torch.__file__)) + os.sep
        self.allowed: Counter[str] = Counter()
        self.forbidden: Counter[str] = Counter()
        self.sites: dict[str, str] = {}
        self.storages: set[int] = set()
        """The storages of every tensor an operator it saw returned, whoever called it."""
        self._paths: dict[str, str] = {}

    @classmethod
    def _should_skip_dynamo(cls) -> bool:
        """No dynamo guard around :meth:`__torch_dispatch__`: it would import torch._dynamo (seconds) on the
        first traced call, and nothing here is compiled."""
        return False

    def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        name = func.overloadpacket.__name__
        site = self._solution_site(sys._getframe(1))
        if site is not None:
            if name in COPIES and reorders(name, args, kwargs or {}):
                name = f"{name} (a copy that reorders memory: a transpose or layout change)"
            elif name in COPIES and self.casts_are_compute and casts(name, args, kwargs or {}):
                name = f"{name} (a copy that changes the dtype: compute the simulated clock does not see)"
            if name in ALLOWED:
                self.allowed[name] += 1
            else:
                self.forbidden[name] += 1
                if name not in self.sites and len(self.sites) < MAX_SITES:
                    self.sites[name] = site
        result = func(*args, **(kwargs or {}))
        for tensor in result if isinstance(result, (tuple, list)) else (result,):
            if isinstance(tensor, torch.Tensor):
                self.storages.add(tensor.untyped_storage().data_ptr())
        return result

    def after_call(self, output: Any, known: list[Any]) -> None:
        """After a traced call: an output whose storage no operator it saw returned (nor one of ``known``, the
        inputs and the model's tensors) was made where it could not see, as under a guard that excludes the
        Python dispatch key; a Python key still excluded after the call would blind it for good. Both count as
        forbidden."""
        if torch._C._dispatch_tls_is_dispatch_key_excluded(torch._C.DispatchKey.Python):
            self.forbidden["the Python dispatch key excluded after the call"] += 1
        if isinstance(output, torch.Tensor) and output.numel():
            pointer = output.untyped_storage().data_ptr()
            known_storages = {t.untyped_storage().data_ptr() for t in known if isinstance(t, torch.Tensor)}
            if pointer not in self.storages and pointer not in known_storages:
                self.forbidden["an output made out of the tripwire's sight (dispatch keys excluded)"] += 1

    def _solution_site(self, frame: Any) -> str | None:
        """``file:line`` of the innermost frame outside torch, or None when that frame is trusted code."""
        while frame is not None:
            path = self._real(frame.f_code.co_filename)
            if not path.startswith(self.transparent):
                if path.startswith(self.trusted):
                    return None
                return f"{os.path.basename(path)}:{frame.f_lineno}"
            frame = frame.f_back
        return None

    def _real(self, filename: str) -> str:
        path = self._paths.get(filename)
        if path is None:
            path = self._paths[filename] = os.path.realpath(filename) if filename.startswith(os.sep) else filename
        return path

    def report(self) -> dict[str, Any]:
        """JSON-able evidence: operator counts (allowed and forbidden) and call sites of the forbidden ones."""
        return {"allowed": dict(self.allowed), "forbidden": dict(self.forbidden), "sites": dict(self.sites)}


def describe(report: dict[str, Any]) -> str:
    """One line naming the forbidden operators and where they were called ('' when there are none)."""
    forbidden = report.get("forbidden") or {}
    sites = report.get("sites") or {}
    parts = [f"aten.{name} x{count}" + (f" (from {sites[name]})" if name in sites else "")
             for name, count in sorted(forbidden.items(), key=lambda item: -item[1])]
    return ", ".join(parts)
