"""Worker-side guard on Triton launches: a launch grid gets sizes, and a ``tl.constexpr`` parameter gets a value.

Triton calls a grid callable with every launch argument by name, and the interpreter hands ``tl.constexpr``
arguments to the kernel as they are: a tensor passed for a constexpr parameter reached a grid lambda, which
computed the task with numpy while the kernel did nothing. The static checks hold grids to size arithmetic; this
is the runtime's half: it wraps ``run`` of Triton's kernel classes (the interpreter's and the compiler's) before any
solution code is imported.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

GUARDED = "__agentkiln_guarded__"


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


def _guarded(run: Callable[..., Any]) -> Callable[..., Any]:
    def guarded_run(self, *args, grid, warmup, **kwargs):
        refuse_tensor_constexprs(self.fn, args, kwargs)
        return run(self, *args, grid=sizes_only(grid), warmup=warmup, **kwargs)

    setattr(guarded_run, GUARDED, True)
    return guarded_run


def refuse_tensor_constexprs(fn: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> None:
    """A TypeError naming the parameter when an array-like is passed for a ``tl.constexpr`` parameter."""
    signature = inspect.signature(fn)
    for name, value in signature.bind_partial(*args, **kwargs).arguments.items():
        if _is_constexpr(signature.parameters[name].annotation) and _array_like(value):
            raise TypeError(f"{getattr(fn, '__name__', 'kernel')}: {type(value).__name__} passed for the tl.constexpr "
                            f"parameter {name!r}: a constexpr is a compile-time number, string or dtype; pass "
                            "tensors as pointer parameters")


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
    if isinstance(value, (list, tuple)):
        return any(_array_like(item) for item in value)
    is_ptr = getattr(getattr(value, "type", None), "is_ptr", None)
    return (hasattr(value, "__array__") or hasattr(value, "data_ptr") or hasattr(value, "__array_interface__")
            or (callable(is_ptr) and bool(is_ptr())))
