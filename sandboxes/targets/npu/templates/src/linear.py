"""Template text of the linear family: x @ W.T on the cube cores, then the bias and any fused
element-wise stages in one vector epilogue pass."""

from sandboxes.targets.npu.templates.src import epilogue, matmul

PARAMS = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Columns per epilogue chunk."""
BASE_M = ${BASE_M}
"""Rows of one cube output tile."""
BASE_N = ${BASE_N}
"""Columns (output features) of one cube output tile."""
BASE_K = ${BASE_K}
"""Depth (input features) of one Mmad step."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers of every queue of both kernels."""
BLOCK_DIM = ${BLOCK_DIM}
"""Blocks of both launches (cube blocks beyond the AIC cores queue behind them)."""
'''

BODY = r'''

def run_linear(x, weight, bias=None):
    """Host side: nn.Linear (x @ weight.T + bias) with the fused stages as the epilogue."""
    return run_epilogue(run_matmul(x, weight.detach(), transpose_b=True), bias)
'''

SOURCE = PARAMS + epilogue.CHAIN + matmul.BODY + epilogue.BODY + BODY
