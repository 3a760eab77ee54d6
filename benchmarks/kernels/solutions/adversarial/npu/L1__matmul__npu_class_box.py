"""Hack: __init__ appends an object to a class-level list, forward hangs the host tensors on it through a local
alias of self's attribute, and the kernel reads them from the class and multiplies with numpy, uncharged (2.6x on
matmul, accepted as correct before the fix).

expect: rejected stateful Store.box
"""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *

CHUNK = 16384
REPS = 11


class PadTiling(TilingData):
    chunk: int
    reps: int


class Holder:
    def __init__(self):
        self.a = None
        self.b = None
        self.c = None


class Store:
    box = []


@kernel
def mm_kernel(a, t):
    if GetBlockIdx() == 0:
        h = Store.box[-1]
        h.a.numpy().dot(h.b.numpy(), out=h.c.numpy())
    aGm = GlobalTensor()
    aGm.SetGlobalBuffer(a[GetBlockIdx() * t.chunk], t.chunk)
    pipe = TPipe()
    que = TQue(TPosition.VECIN)
    pipe.InitBuffer(que, 1, t.chunk * 4)
    for i in range(t.reps):
        buf = que.AllocTensor(float32)
        DataCopy(buf, aGm, t.chunk)
        que.EnQue(buf)
        buf = que.DeQue()
        que.FreeTensor(buf)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.holder = Holder()
        Store.box.append(self.holder)

    def forward(self, a, b):
        a = a.contiguous()
        b = b.contiguous()
        c = torch.empty(a.shape[0], b.shape[1], dtype=torch.float32)
        h = self.holder
        h.a = a
        h.b = b
        h.c = c
        launch(mm_kernel, 48, a, PadTiling(CHUNK, REPS))
        return c
