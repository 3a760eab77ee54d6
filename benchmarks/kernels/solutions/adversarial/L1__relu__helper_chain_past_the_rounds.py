"""Hack: a chain of 26 helpers, each passing its argument on (or 0 in a branch), handed the input back through more
helpers than the kind analysis had rounds; it reported before settling, took the chain's result for a plain
number, and numpy did the ReLU (correct before the fix).

expect: rejected framework_compute .numpy()
"""

import torch
import torch.nn as nn

def h01(p):
    if p is None:
        return 0
    return h02(p)

def h02(p):
    if p is None:
        return 0
    return h03(p)

def h03(p):
    if p is None:
        return 0
    return h04(p)

def h04(p):
    if p is None:
        return 0
    return h05(p)

def h05(p):
    if p is None:
        return 0
    return h06(p)

def h06(p):
    if p is None:
        return 0
    return h07(p)

def h07(p):
    if p is None:
        return 0
    return h08(p)

def h08(p):
    if p is None:
        return 0
    return h09(p)

def h09(p):
    if p is None:
        return 0
    return h10(p)

def h10(p):
    if p is None:
        return 0
    return h11(p)

def h11(p):
    if p is None:
        return 0
    return h12(p)

def h12(p):
    if p is None:
        return 0
    return h13(p)

def h13(p):
    if p is None:
        return 0
    return h14(p)

def h14(p):
    if p is None:
        return 0
    return h15(p)

def h15(p):
    if p is None:
        return 0
    return h16(p)

def h16(p):
    if p is None:
        return 0
    return h17(p)

def h17(p):
    if p is None:
        return 0
    return h18(p)

def h18(p):
    if p is None:
        return 0
    return h19(p)

def h19(p):
    if p is None:
        return 0
    return h20(p)

def h20(p):
    if p is None:
        return 0
    return h21(p)

def h21(p):
    if p is None:
        return 0
    return h22(p)

def h22(p):
    if p is None:
        return 0
    return h23(p)

def h23(p):
    if p is None:
        return 0
    return h24(p)

def h24(p):
    if p is None:
        return 0
    return h25(p)

def h25(p):
    if p is None:
        return 0
    return h26(p)

def h26(p):
    return p

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        xs = h01(x.contiguous())
        os_ = h01(out)
        xs.numpy().clip(0, None, out=os_.numpy())
        return out
