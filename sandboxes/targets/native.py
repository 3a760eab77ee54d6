"""Native code that a solution builds at import time, resolved against the build cache.

Solutions call ``torch.utils.cpp_extension.load_inline(...)`` (KernelBench style) or
:func:`load_cpp` (plain C++ over raw pointers, loaded with ctypes: compiles in about a second).
Inside the harness's worker an :class:`ExtensionResolver` is active: a cached build is loaded; an
uncached one is recorded as an :class:`ExtensionSpec` so that the host builds it in the sandbox
and runs the worker again. The worker never compiles, so a solution cannot poison the cache.
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import importlib.util
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from sandboxes.targets.base import ExtensionSpec

CPP_ARG_TYPES = {"tensor": ctypes.c_void_p, "int": ctypes.c_int64, "float": ctypes.c_float, "double": ctypes.c_double}
"""Argument kinds :func:`load_cpp` understands; a tensor is passed as its data pointer."""


def inline_module_name(digest: str) -> str:
    """The Python module name a load_inline build of ``digest`` gets (unique per source hash)."""
    return f"ak_{digest}"


def artifact_name(spec: ExtensionSpec, digest: str) -> str:
    """File name of the built library inside the cache entry of ``digest``."""
    return f"{inline_module_name(digest)}.so" if spec.kind == "load_inline" else "lib.so"


class PendingExtension:
    """Placeholder returned for an extension that is not built yet; using it fails clearly."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        raise RuntimeError(f"extension {self._name!r} is not built yet (used at import time?)")


class CppLibrary:
    """Functions of a :func:`load_cpp` library as Python callables that accept tensors."""

    def __init__(self, path: Path, functions: Mapping[str, Sequence[str]]) -> None:
        library = ctypes.CDLL(str(path))
        for name, arg_kinds in functions.items():
            setattr(self, name, _typed_function(getattr(library, name), name, list(arg_kinds)))


def _typed_function(raw: Any, name: str, arg_kinds: list[str]) -> Callable[..., None]:
    raw.argtypes = [CPP_ARG_TYPES[kind] for kind in arg_kinds]
    raw.restype = None

    def call(*args: Any) -> None:
        """Check the argument count, pass tensors as data pointers, call the C function."""
        if len(args) != len(arg_kinds):
            raise TypeError(f"{name} takes {len(arg_kinds)} arguments, got {len(args)}")
        raw(*(_convert(value, kind, name) for value, kind in zip(args, arg_kinds)))

    call.__name__ = name
    return call


def _convert(value: Any, kind: str, name: str) -> Any:
    if kind != "tensor":
        return value
    if not value.is_contiguous() or value.device.type != "cpu":
        raise ValueError(f"{name}: tensor arguments must be contiguous CPU tensors")
    return value.data_ptr()


class ExtensionResolver:
    """Loads cached builds by source hash and records the specs of missing ones."""

    def __init__(self, cache_dir: Path | None, salt: str) -> None:
        self.cache_dir = cache_dir
        self.salt = salt
        self.pending: list[ExtensionSpec] = []

    def resolve(self, spec: ExtensionSpec) -> Any:
        """The loaded extension, or a :class:`PendingExtension` after recording ``spec``."""
        digest = spec.digest(self.salt)
        path = self.cache_dir / digest / artifact_name(spec, digest) if self.cache_dir else None
        if path is None or not path.is_file():
            self.pending.append(spec)
            return PendingExtension(spec.name)
        if spec.kind == "cpp":
            return CppLibrary(path, spec.options["functions"])
        return _import_extension(inline_module_name(digest), path)


def _import_extension(module_name: str, path: Path) -> Any:
    import torch  # noqa: F401  (the extension links against torch's libraries)

    loader = importlib.machinery.ExtensionFileLoader(module_name, str(path))
    spec = importlib.util.spec_from_file_location(module_name, str(path), loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


_active: ExtensionResolver | None = None


def activate(resolver: ExtensionResolver) -> None:
    """Make ``resolver`` serve :func:`load_cpp` and ``load_inline`` in this process (worker only)."""
    global _active
    _active = resolver
    import torch.utils.cpp_extension as cpp_extension

    cpp_extension.load_inline = load_inline


def _resolver() -> ExtensionResolver:
    if _active is None:
        raise RuntimeError("native extensions are built by the kernel harness: run the solution through "
                           "`agent bench kernels` or benchmarks.kernels.verifier.harness.evaluate")
    return _active


def cpp_spec(name: str, source: str, functions: Mapping[str, Sequence[str]],
             extra_cflags: Sequence[str] = ()) -> ExtensionSpec:
    """The spec :func:`load_cpp` resolves (same arguments); unknown argument kinds are a ValueError."""
    unknown = sorted({k for kinds in functions.values() for k in kinds} - set(CPP_ARG_TYPES))
    if unknown:
        raise ValueError(f"load_cpp: unknown argument kinds {unknown}; use {sorted(CPP_ARG_TYPES)}")
    return ExtensionSpec(kind="cpp", name=name, cpp_sources=(source,), functions=tuple(functions),
                         extra_cflags=_flags(extra_cflags),
                         options={"functions": {k: list(v) for k, v in functions.items()}})


def load_cpp(name: str, source: str, functions: Mapping[str, Sequence[str]],
             extra_cflags: Sequence[str] = ()) -> Any:
    """Build plain C++ (``extern "C"`` functions, OpenMP allowed) and load it with ctypes.

    ``functions`` maps each exported function to its argument kinds, from ``tensor`` (passed as a
    data pointer to contiguous CPU memory), ``int`` (int64_t), ``float`` and ``double``.
    """
    return _resolver().resolve(cpp_spec(name, source, functions, extra_cflags))


def inline_spec(name: str, cpp_sources: Any, cuda_sources: Any = None, functions: Any = None,
                extra_cflags: Any = None, extra_cuda_cflags: Any = None, extra_ldflags: Any = None,
                extra_include_paths: Any = None, build_directory: Any = None, verbose: bool = False,
                with_cuda: Any = None, is_python_module: bool = True, with_pytorch_error_handling: bool = True,
                keep_intermediates: bool = True, use_pch: bool = False, **ignored: Any) -> ExtensionSpec:
    """The spec a ``load_inline`` call with these arguments resolves to."""
    return ExtensionSpec(
        kind="load_inline", name=name, cpp_sources=_strings(cpp_sources), cuda_sources=_strings(cuda_sources),
        functions=_strings(functions), extra_cflags=_flags(extra_cflags),
        extra_cuda_cflags=_flags(extra_cuda_cflags), extra_ldflags=_flags(extra_ldflags),
        options={"with_cuda": with_cuda, "extra_include_paths": list(_strings(extra_include_paths))})


def load_inline(*args: Any, **kwargs: Any) -> Any:
    """Drop-in for ``torch.utils.cpp_extension.load_inline``, served from the build cache."""
    return _resolver().resolve(inline_spec(*args, **kwargs))


SPEC_BUILDERS = {"load_cpp": cpp_spec, "load_inline": inline_spec}
"""Solution-facing loader name -> the function that turns its arguments into a spec."""


def _flags(value: Any) -> tuple[str, ...]:
    """Compiler flags stripped as torch strips them, without the empty ones (KernelBench passes
    ``extra_cflags=[""]``; g++ reads "" as a file)."""
    return tuple(flag.strip() for flag in _strings(value) if flag.strip())


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Mapping):
        return tuple(str(k) for k in value)
    return tuple(str(v) for v in value)
