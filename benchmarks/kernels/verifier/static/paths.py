"""Judging a dotted path reached through an import (``torch.empty_like``, ``F.relu``, ``torch.os``).

:func:`path_value` says what naming the path gives (or why it is refused), :func:`path_call` what
calling it gives. ``ctx`` is ``module`` (top level and class bodies), ``init`` or ``host``.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Sequence

from benchmarks.kernels.verifier.static import allowlist as allow
from benchmarks.kernels.verifier.static.kinds import SCALAR, TENSOR, UNKNOWN, Kind, Tag

MODULES = frozenset({"torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.utils",
                     "torch.utils.cpp_extension", "torch.cuda", "triton", "triton.language", "math", "typing",
                     "numbers", "__future__", "sandboxes.targets.native", allow.NPU_LANG})
"""Modules a solution may name (what it may do with their attributes is decided per attribute)."""
SCALAR_MODULES = ("math.", "typing.", "numbers.", "__future__.")
TORCH_QUERIES = frozenset({"Size", "device", "finfo", "iinfo", "get_default_dtype", "is_tensor", "is_floating_point",
                           "no_grad", "inference_mode", "cuda.is_available", "cuda.current_device",
                           "cuda.device_count", "cuda.device", "cuda.get_device_capability",
                           "cuda.get_device_properties"})
"""Callable torch names whose result is plain data (or a no-grad context)."""
SCALAR_CALLS = frozenset({"triton.cdiv", "triton.next_power_of_2", "triton.Config",
                          "triton.jit", "triton.autotune", "triton.heuristics", "triton.language.constexpr"})
"""Calls that take and give plain data."""


LANGUAGE_OF = {"sandboxes.targets.native.": "native", "torch.utils.cpp_extension.": "native", "triton.": "triton",
               allow.NPU_LANG + ".": "npu"}
"""Path prefix -> the kernel language it belongs to (a target allows only its own languages)."""
LANGUAGES = ("native", "triton", "npu")


def language_of(path: str) -> str | None:
    """The kernel language ``path`` belongs to, or None for what every target shares."""
    return next((lang for prefix, lang in LANGUAGE_OF.items() if (path + ".").startswith(prefix)), None)


class Refused(Exception):
    """A path or call outside the allow-list: ``rule`` and an actionable ``message``."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


def path_value(path: str, ctx: str) -> Kind:
    """The kind of naming ``path`` in ``ctx``; raises :class:`Refused` for anything not on the list."""
    if path in MODULES or path in allow.LOADERS:
        return Kind(Tag.PATH, path)
    if path.startswith(SCALAR_MODULES):
        return Kind(Tag.PATH, path) if callable(_lookup(path)) else SCALAR
    head, _, rest = path.partition(".")
    if head == "torch":
        return _torch(rest, path, ctx)
    if head == "triton":
        return _triton(rest, path)
    if path.startswith(allow.NPU_LANG + "."):
        name = path[len(allow.NPU_LANG) + 1:]
        if name in allow.NPU_HOST:
            return Kind(Tag.PATH, path)
        raise Refused("not_allowed", f"{name} is a kernel-language instruction: use it inside your @kernel, not on "
                                     "the host (host code may only tile, allocate and launch)")
    raise Refused("not_allowed", f"{path} is not on the allow-list of what a solution may use")


def _torch(rest: str, path: str, ctx: str) -> Kind:
    first = rest.split(".")[0]
    if first in allow.TORCH_INTERNALS or rest.split(".")[-1] in allow.TORCH_INTERNALS or first.startswith("_"):
        raise Refused("forbidden_attribute", f"{path} reaches torch's internals, compilers, streams or clocks "
                                             "(known hacks); solutions may not use it")
    if rest in allow.ALLOCATION or rest in TORCH_QUERIES or rest in ("tensor", "as_tensor", "Tensor"):
        return Kind(Tag.PATH, path)
    if rest in allow.TORCH_VALUES:
        return SCALAR
    if rest in allow.INIT_CREATION or rest in ("nn.Parameter", "nn.Module") or rest.startswith("nn.init."):
        return _init_only(path, ctx)
    if rest.startswith("nn.") and rest[3:] in allow.PARAMETRISED_LAYERS:
        return _init_only(path, ctx)
    if path == "torch.nn.Module.__init__":
        return Kind(Tag.PATH, path)
    raise Refused(*_torch_refusal(path, ctx))


def _init_only(path: str, ctx: str) -> Kind:
    if ctx == "init" or path == "torch.nn.Module":
        return Kind(Tag.PATH, path)
    raise Refused("framework_compute", f"{path} creates weights or layers: do that in __init__ only")


def _torch_refusal(path: str, ctx: str) -> tuple[str, str]:
    """Rule and message for a torch name off the list; re-exported modules are told apart from ops."""
    value = _lookup(path)
    if inspect.ismodule(value) and not value.__name__.startswith("torch"):
        return ("forbidden_attribute", f"{path} is the {value.__name__} module re-exported by torch: solutions may "
                                       "not reach other modules through torch")
    if path.startswith("torch.nn.") and inspect.isclass(value):
        return ("framework_compute", f"{path} is a framework layer: calling it runs the framework's op; store its "
                                     "settings as plain numbers and compute in your kernel")
    if ctx == "init" and not init_call(path):
        return ("not_allowed", f"{path} is not a tensor function: __init__ may prepare weights with torch's tensor "
                               "functions, never change process-wide settings, files, processes or load code")
    return ("framework_compute", f"{path} is framework compute (or not on the allow-list): forward and what it reaches "
                                 "may only allocate (torch.empty*), query shapes and dtypes, do integer arithmetic "
                                 "and call your own kernel")


INIT_OP_MODULES = ("torch.nn.functional.", "torch.nn.init.", "torch.linalg.", "torch.fft.", "torch.special.")
"""Modules of tensor functions ``__init__`` may call on its weights (besides torch's own ATen functions)."""
INIT_DENIED_OPS = frozenset({"from_file"})
"""ATen functions with an effect outside tensors (``from_file(shared=True)`` writes a file), refused in ``__init__``."""


def init_call(path: str) -> bool:
    """True when ``__init__`` may call ``path`` to prepare weights: a tensor function of torch (an ATen function
    such as ``torch.cat``, ``torch.functional``'s ``einsum``, ``F.*``, ``nn.init.*``, ``torch.linalg``/``fft``/
    ``special``) or a layer that holds weights; never torch's process-wide settings (``set_num_threads``,
    ``manual_seed``), files (``load``, ``save``, ``from_file``), processes (``multiprocessing``), code loading
    (``hub``, ``package``, ``classes.load_library``), internals, or a module torch re-exports."""
    if not path.startswith("torch.") or any(p in allow.TORCH_INTERNALS or p.startswith("_") for p in path.split(".")):
        return False
    value = _lookup(path)
    name = path.split(".")[-1]
    if inspect.isclass(value) and path.startswith("torch.nn."):
        return name in allow.PARAMETRISED_LAYERS or path == "torch.nn.Parameter"
    if not callable(value) or inspect.ismodule(value) or name in INIT_DENIED_OPS or not _only_torch(path):
        return False
    if path == "torch.Generator":  # a random generator of the init's own, for weights
        return True
    if path.count(".") == 1:
        import torch  # here, not at the top: the CLI loads these checks and must start without torch

        return hasattr(torch._C._VariableFunctions, name) or getattr(value, "__module__", None) == "torch.functional"
    if path.startswith("torch.Tensor."):  # as the tensor methods __init__ may call
        return name not in allow.INIT_DENIED_METHODS
    return path.startswith(INIT_OP_MODULES)


def _only_torch(path: str) -> bool:
    """True when every module on the way to ``path`` is torch's own (not ``torch.threading``)."""
    parts = path.split(".")
    return all(not inspect.ismodule(v) or v.__name__.startswith("torch")
               for v in (_lookup(".".join(parts[:i])) for i in range(1, len(parts))))


def _lookup(path: str) -> object:
    parts = path.split(".")
    try:
        value: object = importlib.import_module(parts[0])
        for part in parts[1:]:
            value = inspect.getattr_static(value, part)
    except (ImportError, AttributeError):
        return None
    return value


def _triton(rest: str, path: str) -> Kind:
    first = rest.split(".")[0]
    if first in allow.TRITON_HOST and "." not in rest:
        return Kind(Tag.PATH, path)
    if first == "language" and rest[len("language."):] in allow.TRITON_LANGUAGE_HOST:
        return SCALAR
    raise Refused("not_allowed", f"{path} may only be used inside a @triton.jit kernel (host code may launch, "
                                 "use triton.cdiv / next_power_of_2 and pass tl dtypes)")


def path_call(path: str, ctx: str, args: Sequence[Kind]) -> Kind:
    """The kind of calling the allowed callable ``path``; raises :class:`Refused` when the call is not allowed."""
    name = path.split(".")[-1]
    if path in allow.LOADERS:
        if ctx == "host":
            raise Refused("not_allowed", f"{name}() builds a library: call it at module level or in __init__")
        return _scalar_args(path, args, Kind(Tag.LIB, path), ctx)
    creation = path.count(".") == 1 and name in allow.INIT_CREATION
    makes_tensor = (path.startswith("torch.") and name in allow.ALLOCATION and path.count(".") == 1) or creation or (
        path.startswith(("torch.nn.init.", "torch.nn.Parameter")) or path in ("torch.tensor", "torch.as_tensor"))
    if makes_tensor and ctx == "module":
        raise Refused("stateful", f"{path}() at module level makes a tensor shared by every call: allocate "
                                  "inside forward (or in __init__, as a buffer)")
    if path.startswith("torch.") and name in allow.ALLOCATION and path.count(".") == 1:
        return TENSOR
    if path.startswith(("torch.nn.init.", "torch.nn.Parameter")) or creation:
        return TENSOR
    if path.startswith("torch.nn.") and name in allow.PARAMETRISED_LAYERS:
        return Kind(Tag.LAYER, path)
    if path in ("torch.nn.Module.__init__", "torch.is_tensor", "torch.is_floating_point"):
        return SCALAR
    if path.startswith("typing."):
        return UNKNOWN
    if path in ("torch.tensor", "torch.as_tensor"):
        return _scalar_args(path, args, TENSOR, ctx)
    torch_query = path.startswith("torch.") and path[len("torch."):] in TORCH_QUERIES
    npu_helper = path.startswith(allow.NPU_LANG + ".") and name in allow.NPU_HOST
    if path in SCALAR_CALLS or path.startswith(("math.", "numbers.")) or torch_query or npu_helper:
        return _scalar_args(path, args, SCALAR, ctx)
    raise Refused("not_allowed", f"{path}() is not a call a solution may make")


def _scalar_args(path: str, args: Sequence[Kind], result: Kind, ctx: str) -> Kind:
    if ctx != "init" and any(a.tag is not Tag.SCALAR for a in args):
        raise Refused("framework_compute", f"{path}() is given a tensor (or a value that may be one): outside a "
                                           "kernel it only takes plain numbers; allocate with torch.empty* and "
                                           "compute in your kernel")
    return result
