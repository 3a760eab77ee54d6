"""Element types by name, numpy dtype or torch dtype."""

import ml_dtypes
import numpy as np
import pytest
import torch

from sandboxes.targets.npu.dtypes import dtype_name, is_float, itemsize, np_dtype
from sandboxes.targets.npu.errors import DtypeError


def test_names_aliases_and_foreign_dtypes():
    assert dtype_name("half") == dtype_name(np.float16) == dtype_name(torch.float16) == "float16"
    assert dtype_name(torch.bfloat16) == "bfloat16" and np_dtype("bf16") == np.dtype(ml_dtypes.bfloat16)
    assert itemsize("int8") == 1 and is_float("float32") and not is_float("int32")
    with pytest.raises(DtypeError, match="unsupported element type"):
        dtype_name("complex64")
