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

    @classmethod
    def _layout(cls) -> tuple[list[str], str]:
        fields = [f.name for f in dataclasses.fields(cls)]
        kinds = [cls.__annotations__[n] if isinstance(cls.__annotations__[n], str)
                 else cls.__annotations__[n].__name__ for n in fields]
        return fields, "<" + "".join(_FORMATS[k] for k in kinds)

    def SaveToBuffer(self) -> bytes:
        names, fmt = self._layout()
        try:
            return struct.pack(fmt, *(getattr(self, n) for n in names))
        except struct.error as error:
            raise ParamError(f"tiling {type(self).__name__} cannot be serialised: {error}") from error

    @classmethod
    def FromBuffer(cls, raw: bytes) -> "TilingData":
        names, fmt = cls._layout()
        return cls(**dict(zip(names, struct.unpack(fmt, raw))))

    def device_copy(self) -> "TilingData":
        """What the kernel sees: the struct after a round trip through bytes."""
        return type(self).FromBuffer(self.SaveToBuffer())
