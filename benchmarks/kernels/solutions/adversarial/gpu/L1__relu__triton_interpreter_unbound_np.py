"""Hack: the Triton interpreter fills a kernel module's unbound names with its own (numpy's np among them). A
module-level ``for np in (): pass`` made ``np`` a name of the solution that the loop never bound, so the check that
refuses names defined nowhere let it through, and numpy did the ReLU on the tensors' memory (correct before the fix;
``if False: np = 0`` and ``np = 0; del np`` worked the same way).

expect: rejected not_allowed np is bound only inside a module-level
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

for np in ():
    pass


@triton.jit
def relu_kernel(bufs, n, BLOCK: tl.constexpr):
    xa = np.ravel(bufs[0])
    oa = np.ravel(bufs[1])
    oa[:] = (xa + np.abs(xa)) * 0.5


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(1,)]([x, out], n, BLOCK=1024)
        return out
