"""Host-side tiling structs (BEGIN_TILING_DATA_DEF … in Ascend C).

Subclass :class:`TilingData` with annotated ``int``/``float``/``bool`` fields. The host fills it;
``launch`` serialises it to bytes and the kernel receives a copy rebuilt from those bytes, so only
plain numbers cross from host to device (floats travel as C ``float``).
"""

from __future__ import annotations

import dataclasses
import struct

from sandboxes.targets.npu.errors import ParamError

_FORMATS = {"int": "q", "float": "f", "bool": "?"}


class TilingData:
    """Base of tiling structs; subclasses become dataclasses with numeric fields."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        dataclasses.dataclass(cls)
        for name, kind in cls.__annotations__.items():
            kind = kind if isinstance(kind, str) else kind.__name__
            if kind not in _FORMATS:
                raise ParamError(f"tiling field {cls.__name__}.{name} is {kind}; tiling fields are int, float or bool")

    def SaveToBuffer(self) -> bytes:
        """The struct's bytes (little-endian, in field order)."""
        return _pack(self)

    @classmethod
    def FromBuffer(cls, raw: bytes) -> "TilingData":
        return _unpack(cls, raw)


def device_copy(tiling: TilingData) -> TilingData:
    """What the kernel sees: the struct after a round trip through bytes. A function of this module, never a method,
    so that a solution cannot replace it on the class (``TilingData.device_copy = lambda self: self`` handed the
    host object, host tensors attached, to the kernel)."""
    return _unpack(type(tiling), _pack(tiling))


def _layout(cls: type) -> tuple[list[str], str]:
    fields = [f.name for f in dataclasses.fields(cls)]
    kinds = [cls.__annotations__[n] if isinstance(cls.__annotations__[n], str)
             else cls.__annotations__[n].__name__ for n in fields]
    return fields, "<" + "".join(_FORMATS[k] for k in kinds)


def _pack(tiling: TilingData) -> bytes:
    names, fmt = _layout(type(tiling))
    try:
        return struct.pack(fmt, *(getattr(tiling, n) for n in names))
    except (struct.error, OverflowError) as error:
        raise ParamError(f"tiling {type(tiling).__name__} cannot be serialised: {error}") from error


def _unpack(cls: type, raw: bytes) -> TilingData:
    """A new struct holding the fields of ``raw`` and nothing else (no ``__init__`` of the solution's runs)."""
    names, fmt = _layout(cls)
    copy = object.__new__(cls)
    for name, value in zip(names, struct.unpack(fmt, raw)):
        object.__setattr__(copy, name, value)
    return copy
