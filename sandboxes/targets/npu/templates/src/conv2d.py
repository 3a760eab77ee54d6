"""Template text of the conv2d family: img2col on the vector cores (the window family's kernel), one
cube matmul per image against the filter matrix, and a per-channel epilogue (the bias, a fused batch or
group norm, fused element-wise stages)."""

from sandboxes.targets.npu.templates.src import channel, matmul, window

PARAMS = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Output positions per window band."""
BASE_M = ${BASE_M}
"""Output channels of one cube tile."""
BASE_N = ${BASE_N}
"""Output positions of one cube tile."""
BASE_K = ${BASE_K}
"""Depth (input channels x taps) of one Mmad step."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers of every queue of the three kernels."""
BLOCK_DIM = ${BLOCK_DIM}
"""Blocks of every launch (cube blocks beyond the AIC cores queue behind them)."""
KH, KW, STRIDE = ${KH}, ${KW}, ${STRIDE}
PAD_H, PAD_W, DIL_H, DIL_W = ${PAD_H}, ${PAD_W}, ${DIL_H}, ${DIL_W}
'''
"""The window, cube and vector parameters of a convolution (shared with the separable family)."""

HEADER = PARAMS + '''WINDOW = "img2col"
'''

BODY = r'''

def run_conv2d(x, weight, bias=None, norm_weight=None, norm_bias=None, mean=None, var=None):
    """Host side: NCHW convolution as img2col, weight (Cout x Cin*KH*KW) @ col per image, then the
    per-channel epilogue: the bias, and the fused norm (its parameters) and stages; NCL x (conv1d) runs as
    N x C x 1 x L."""
    if x.dim() == 3:
        return run_conv2d(x.unsqueeze(2), weight, bias, norm_weight, norm_bias, mean, var).squeeze(2)
    col = run_window(x)
    n, k, oh, ow = col.shape
    cout = weight.shape[0]
    y = run_matmul(weight.detach().reshape(cout, k), col.reshape(n, k, oh * ow)).reshape(n, cout, oh, ow)
    if bias is None and AFFINE == "bias" and not STAGES:
        return y
    return run_channel(y, norm_weight, norm_bias, mean, var, bias)
'''

SOURCE = HEADER + channel.MAP + window.BODY + matmul.BODY + channel.BODY + BODY
