"""What a name may hold, as far as the checks can tell: the small lattice the allow-list reasons over.

``SCALAR`` is plain Python data that no input reached (literals, sizes, dtypes, ``__init__`` arguments);
``TENSOR`` is a tensor; ``UNKNOWN`` may be either. The other tags are the things a solution may call
(its kernels, an allowed torch function, its own helpers) or hold (a weight-holding nn layer).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Tag(str, Enum):
    """The kinds of value."""

    NONE = "none"
    """Nothing seen yet (the bottom of the lattice)."""
    SCALAR = "scalar"
    TENSOR = "tensor"
    UNKNOWN = "unknown"
    LIB = "lib"
    """A native library built by load_cpp / load_inline."""
    KERNEL = "kernel"
    """A function of such a library."""
    TRITON = "triton"
    """A ``@triton.jit`` function; ``kernel[grid]`` is its launcher."""
    LAUNCH = "launch"
    NPU_KERNEL = "npu_kernel"
    """An NPU ``@kernel`` function (passed to ``launch``)."""
    LAYER = "layer"
    """An nn layer that holds weights."""
    PATH = "path"
    """An allowed module or function reached through an import (``name`` is the dotted path)."""
    FUNC = "func"
    """The solution's own function or method (``name`` is its key)."""
    CLASS = "class"
    OBJ = "obj"
    """An instance of the solution's own class (``name`` is the class)."""
    SELF = "self"
    SUPER = "super"
    BUILTIN = "builtin"
    LAMBDA = "lambda"


@dataclass(frozen=True)
class Kind:
    """A tag plus its detail (a path, a function key, a class or builtin name)."""

    tag: Tag
    name: str = ""

    @property
    def is_data(self) -> bool:
        """True for values (scalars, tensors, unknowns) rather than callables or objects."""
        return self.tag in DATA

    def __str__(self) -> str:
        return f"{self.tag.value}:{self.name}" if self.name else self.tag.value


DATA = frozenset({Tag.SCALAR, Tag.TENSOR, Tag.UNKNOWN})
NONE = Kind(Tag.NONE)
SCALAR = Kind(Tag.SCALAR)
TENSOR = Kind(Tag.TENSOR)
UNKNOWN = Kind(Tag.UNKNOWN)


def join(a: Kind, b: Kind) -> Kind:
    """The least kind covering both (different kinds meet at UNKNOWN)."""
    if a == b or b.tag is Tag.NONE:
        return a
    if a.tag is Tag.NONE:
        return b
    return UNKNOWN


def join_all(kinds) -> Kind:
    """:func:`join` over an iterable (SCALAR for an empty one: an empty list holds no tensor)."""
    result = NONE
    for kind in kinds:
        result = join(result, kind)
    return SCALAR if result.tag is Tag.NONE else result


def element(kind: Kind) -> Kind:
    """The kind of an item of a container (or row of a tensor) of ``kind``."""
    return kind if kind.tag in (Tag.SCALAR, Tag.TENSOR) else UNKNOWN
