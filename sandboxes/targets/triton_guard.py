"""Worker-side guard on Triton launches: a launch grid gets sizes, a parameter gets a value or one tensor, and the
interpreter runs a launch's programs in a random order.

Triton calls a grid callable with every launch argument by name, and the interpreter hands ``tl.constexpr``
arguments (and lists or dicts given for any parameter) to the kernel as they are: a tensor passed that way reached
a grid lambda or the kernel body, which computed the task with numpy while no Triton instruction ran. The static
checks hold grids to size arithmetic; this is the runtime's half: it wraps ``run`` of Triton's kernel classes (the
interpreter's and the compiler's) before any solution code is imported.

The interpreter runs programs one after another, so a program could read what an earlier one wrote (a cumsum
carrying each chunk's total to the next: a race on a GPU, where programs run at once). Each launch here runs its
programs in a fresh random order, so a kernel that needs an order fails its correctness trials.
"""

from __future__ import annotations

import inspect
import itertools
import numbers
import random
from typing import Any, Callable

GUARDED = "__agentkiln_guarded__"
CONTAINERS = (list, tuple, set, frozenset)
"""Sequences and sets (dicts by their values): the interpreter hands each to a kernel as it is."""


def guard_triton_launches() -> None:
    """Wrap ``run`` of Triton's kernel classes once per process (no-op without Triton)."""
    try:
        from triton.runtime.interpreter import InterpretedFunction
        from triton.runtime.jit import JITFunction
    except ImportError:
        return
    for cls in (InterpretedFunction, JITFunction):
        if not getattr(cls.run, GUARDED, False):
            cls.run = _guarded(cls.run)
    shuffle_program_order()


def shuffle_program_order() -> None:
    """Make the interpreter's grid loop visit its programs in a random order (each launch a fresh one): the loop
    sets the grid index program by program, and the index it sets is mapped through a permutation of the grid."""
    from triton.runtime import interpreter

    builder = interpreter.interpreter_builder
    if getattr(builder.set_grid_idx, GUARDED, False):
        return
    set_dim, set_index = builder.set_grid_dim, builder.set_grid_idx
    shuffler = random.Random()
    order: list[tuple[int, int, int]] = []
    dims = [1, 1, 1]

    def set_grid_dim(nx: int, ny: int, nz: int) -> None:
        dims[:] = [nx, ny, nz]
        order[:] = itertools.product(range(nx), range(ny), range(nz))
        shuffler.shuffle(order)
        set_dim(nx, ny, nz)

    def set_grid_idx(x: int, y: int, z: int) -> None:
        set_index(*order[(x * dims[1] + y) * dims[2] + z])

    setattr(set_grid_idx, GUARDED, True)
    builder.set_grid_dim, builder.set_grid_idx = set_grid_dim, set_grid_idx


def _guarded(run: Callable[..., Any]) -> Callable[..., Any]:
    def guarded_run(self, *args, grid, warmup, **kwargs):
        refuse_tensor_constexprs(self.fn, args, kwargs)
        refuse_foreign_objects(self.fn, args, kwargs)
        return run(self, *args, grid=sizes_only(grid), warmup=warmup, **kwargs)

    setattr(guarded_run, GUARDED, True)
    return guarded_run


def refuse_tensor_constexprs(fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> None:
    """A TypeError naming the parameter when an array-like is passed for a ``tl.constexpr`` parameter, or inside a
    list, tuple, set or dict for any parameter (the interpreter hands both to the kernel as they are)."""
    signature = inspect.signature(fn)
    for name, value in signature.bind_partial(*args, **kwargs).arguments.items():
        constexpr = _is_constexpr(signature.parameters[name].annotation)
        if (constexpr or isinstance(value, (*CONTAINERS, dict))) and _array_like(value):
            raise TypeError(f"{getattr(fn, '__name__', 'kernel')}: {type(value).__name__} holding tensors passed for "
                            f"the {'tl.constexpr ' if constexpr else ''}parameter {name!r}: pass each tensor as a "
                            "pointer parameter of its own (a constexpr is a compile-time number, string or dtype)")


def refuse_foreign_objects(fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> None:
    """A TypeError naming the parameter when a launch argument is none of what a kernel takes: a tensor, a number, a
    string, None, a dtype, one of Triton's own objects (constexprs, kernels, descriptors), or a tuple of those. The
    interpreter hands any object to the kernel as it is, where a property of the solution's own class ran host Python
    inside the kernel."""
    signature = inspect.signature(fn)
    for name, value in signature.bind_partial(*args, **kwargs).arguments.items():
        if not _kernel_value(value):
            raise TypeError(f"{getattr(fn, '__name__', 'kernel')}: a {type(value).__name__} passed for the parameter "
                            f"{name!r}: a launch takes tensors, numbers, strings, dtypes and Triton's own objects")


def _kernel_value(value: Any) -> bool:
    if isinstance(value, CONTAINERS):
        return all(_kernel_value(item) for item in value)
    if value is None or isinstance(value, (numbers.Number, str)):
        return True
    owner = type(value).__module__.split(".")[0]
    return owner == "triton" or (owner == "torch" and _torch_value(value))


def _torch_value(value: Any) -> bool:
    import torch

    return isinstance(value, (torch.Tensor, torch.dtype))


def sizes_only(grid: Any) -> Any:
    """A grid callable that sees the launch's meta-parameters without its tensors (a grid computes sizes)."""
    if not callable(grid):
        return grid
    return lambda meta: grid({key: value for key, value in meta.items() if not _array_like(value)})


def _is_constexpr(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
    return "constexpr" in str(text)


def _array_like(value: Any) -> bool:
    """A tensor, an array, a pointer (the interpreter's stand-in for a tensor argument), or a sequence holding one."""
    if isinstance(value, dict):
        return any(_array_like(item) for item in value.values())
    if isinstance(value, CONTAINERS):
        return any(_array_like(item) for item in value)
    is_ptr = getattr(getattr(value, "type", None), "is_ptr", None)
    return (hasattr(value, "__array__") or hasattr(value, "data_ptr") or hasattr(value, "__array_interface__")
            or (callable(is_ptr) and bool(is_ptr())))
