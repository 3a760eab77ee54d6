"""The kernel language: ``from sandboxes.targets.npu.lang import *`` in a kernel source file.

Names mirror Ascend C. Kernels are Python functions marked ``@kernel``; they touch memory only
through these APIs, and the simulator executes and times every call.
"""

from sandboxes.targets.npu.dtypes import itemsize as sizeof
from sandboxes.targets.npu.cube import FixpipeParams, Fixpipe, LoadData, LoadData2DParams, Mmad, MmadParams
from sandboxes.targets.npu.datacopy import (DataCopy, DataCopyExtParams, DataCopyPad, DataCopyPadExtParams,
                                            DataCopyParams)
from sandboxes.targets.npu.fractal import Nd2NzParams
from sandboxes.targets.npu import launch as _simulator
from sandboxes.targets.npu.errors import ParamError as _ParamError
from sandboxes.targets.npu.launch import kernel
from sandboxes.targets.npu.pipe import TBuf, TPipe, TQue
from sandboxes.targets.npu.runtime import GetBlockIdx, GetBlockNum
from sandboxes.targets.npu.sync import HardEvent, PipeBarrier, SetFlag, WaitFlag
from sandboxes.targets.npu.tensors import GlobalTensor, LocalTensor, TPosition
from sandboxes.targets.npu.tiling import TilingData
from sandboxes.targets.npu.utils import (AlignedCount, AlignUp, BlockSpan, CeilDiv, CopyIn, CopyOut, ScalarExp,
                                         ScalarLog, ScalarSqrt)
from sandboxes.targets.npu.vector import (Abs, Add, And, Axpy, BinaryRepeatParams, Div, Exp, LeakyRelu, Ln, Max,
                                          Maxs, Min, Mins, Mul, Muls, Or, Reciprocal, Relu, Rsqrt, Sqrt, Sub, Adds,
                                          UnaryRepeatParams)
from sandboxes.targets.npu.vector_extra import (CMPMODE, SELMODE, Cast, Compare, CompareScalar, Duplicate,
                                                ReduceMax, ReduceMin, ReduceSum, RoundMode, Select,
                                                WholeReduceMax, WholeReduceMin, WholeReduceSum)
from sandboxes.targets.npu.vector_gather import CreateVecIndex, CumSum, Gather

QuePosition = TPosition
half, float16, float32, bfloat16 = "float16", "float16", "float32", "bfloat16"
int8, uint8, int16, int32 = "int8", "uint8", "int16", "int32"
BLOCK_BYTES = 32
"""One DataBlock: the unit of UB alignment and of DataCopy lengths."""



def launch(kernel_fn, block_dim: int, *args, chip=None, trace: bool = False):
    """``kernel<<<block_dim>>>(args)``: :func:`sandboxes.targets.npu.launch.launch`, except that inside a
    capture (a forward pass whose cycles are being counted) only the capture's own chip may be named:
    a kernel source that passed a chip of its own (zero latencies, unbounded bandwidth) would time itself."""
    if chip is not None and _simulator._CAPTURE.get() is not None and chip is not _simulator.current_chip():
        raise _ParamError("launch() was given a chip of its own inside a timed forward pass: the chip is the "
                          "verifier's; call launch(kernel, block_dim, args...)")
    return _simulator.launch(kernel_fn, block_dim, *args, chip=chip, trace=trace)


__all__ = [name for name in dir() if not name.startswith("_")]
