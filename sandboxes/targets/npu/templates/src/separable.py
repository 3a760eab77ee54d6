"""Template text of the separable family: a depthwise convolution (the window family's kernel) and
then a 1x1 convolution as one cube matmul per image against the pointwise filter matrix."""

from sandboxes.targets.npu.templates.src import conv2d, matmul, window

HEADER = conv2d.PARAMS + '''WINDOW = "depthwise"
'''

BODY = r'''

def run_separable(x, depthwise, pointwise):
    """Host side: the depthwise convolution of NCHW x, then pointwise (Cout x Cin x 1 x 1) @ its result per image."""
    y = run_window(x, depthwise)
    n, c, oh, ow = y.shape
    cout = pointwise.shape[0]
    return run_matmul(pointwise.detach().reshape(cout, c), y.reshape(n, c, oh * ow)).reshape(n, cout, oh, ow)
'''

SOURCE = HEADER + window.BODY + matmul.BODY + BODY
