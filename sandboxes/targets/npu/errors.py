"""Hardware-rule violations, one class per rule, each with a message an agent can act on.

``stage`` says how the real toolchain would surface the problem: ``compile`` (ccec / tiling
checks) or ``runtime`` (an aicore exception, a hang or a wrong result on the chip).
"""

from __future__ import annotations


class NpuKernelError(Exception):
    """A kernel broke a rule of the simulated NPU."""

    stage = "runtime"


class CapacityError(NpuKernelError):
    """On-chip buffers (UB, L1, L0A, L0B, L0C) or queue-buffer counts are exceeded."""

    stage = "compile"


class AlignmentError(NpuKernelError):
    """An address or a copy length breaks the 32-byte (or fractal) alignment rule."""


class OutOfBoundsError(NpuKernelError):
    """An access runs past the end of a global or local tensor."""


class QueuePositionError(NpuKernelError):
    """A tensor sits in the wrong TPosition for the instruction, or the core type lacks that buffer."""

    stage = "compile"


class QueueError(NpuKernelError):
    """TQue protocol misuse: AllocTensor with every buffer taken, DeQue of an empty queue, EnQue past depth."""


class UseAfterFreeError(NpuKernelError):
    """A LocalTensor is used after FreeTensor returned its buffer to the queue."""


class SyncError(NpuKernelError):
    """One pipe reads data another pipe wrote with no queue event (EnQue/DeQue) or flag between them."""


class CubeBufferError(NpuKernelError):
    """Mmad, LoadData or Fixpipe got an operand in the wrong buffer or format."""

    stage = "compile"


class DtypeError(NpuKernelError):
    """An instruction does not support the operand element types, or they do not match."""

    stage = "compile"


class ParamError(NpuKernelError):
    """An instruction parameter is out of range (repeatTimes > 255, negative count, bad block_dim)."""
