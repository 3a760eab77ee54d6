"""Element types of the kernel language and their numpy storage (bf16 through ml_dtypes)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from sandboxes.targets.npu.errors import DtypeError, ParamError

DTYPES: dict[str, np.dtype] = {
    "float16": np.dtype(np.float16),
    "float32": np.dtype(np.float32),
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "int8": np.dtype(np.int8),
    "uint8": np.dtype(np.uint8),
    "int16": np.dtype(np.int16),
    "int32": np.dtype(np.int32),
}
ALIASES = {"half": "float16", "fp16": "float16", "float": "float32", "fp32": "float32",
           "bf16": "bfloat16", "int": "int32"}
_NAMES = {value: key for key, value in DTYPES.items()}
FLOATS = frozenset({"float16", "float32", "bfloat16"})


def dtype_name(dtype: object) -> str:
    """Canonical name of a dtype given as a name, a numpy dtype or a torch dtype."""
    if dtype in DTYPES:
        return dtype
    if isinstance(dtype, np.dtype) and dtype in _NAMES:
        return _NAMES[dtype]
    if isinstance(dtype, str):
        name = ALIASES.get(dtype, dtype)
    else:
        name = str(dtype).removeprefix("torch.")
        if name not in DTYPES:
            name = np.dtype(dtype).name if not str(dtype).startswith("torch") else name
    if name not in DTYPES:
        raise DtypeError(f"unsupported element type {dtype!r}; the NPU supports {sorted(DTYPES)}")
    return name


def np_dtype(dtype: object) -> np.dtype:
    found = DTYPES.get(dtype) if type(dtype) is str else None  # the simulator's own calls: a canonical name
    return found if found is not None else DTYPES[dtype_name(dtype)]


def itemsize(dtype: object) -> int:
    return np_dtype(dtype).itemsize


def is_float(dtype: object) -> bool:
    return dtype_name(dtype) in FLOATS


def require_number(value, what: str) -> None:
    """Refuse anything but a plain number where the chip takes a scalar (numpy would broadcast an array or a host
    tensor into UB with no copy charged)."""
    if not isinstance(value, (int, float, bool, np.number, np.bool_)):
        raise ParamError(f"{what} must be a number, got {type(value).__name__}")


def require_int(value, what: str) -> int:
    """A plain integer where the chip takes one (a list in a stride broadcast one instruction over a whole tile)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ParamError(f"{what} must be an integer, got {type(value).__name__}")
    return int(value)
