"""Template text of the attention family: softmax(q @ k^T * scale) @ v as a batched cube matmul with
k transposed, the softmax family's kernel with the scale applied to every loaded chunk, and a second
batched cube matmul."""

from sandboxes.targets.npu.templates.src import linear, matmul, softmax

HEADER = linear.PARAMS + r'''LOG = False
PREFETCH = 0
"""The softmax kernel's chunks are copied in when needed (see ChunkStream)."""
SCALE = ${SCALE}
"""What the scores are multiplied by before the softmax; None: 1 / sqrt(head dim) (scaled dot-product)."""
'''

BODY = r'''

def run_attention(q, k, v):
    """Host side: attention over the last two dimensions of q, k and v (any leading batch dimensions)."""
    s, e, sk, ev = q.shape[-2], q.shape[-1], k.shape[-2], v.shape[-1]
    scores = run_matmul(q.reshape(-1, s, e), k.reshape(-1, sk, e), transpose_b=True)
    probs = run_softmax(scores, 1.0 / math.sqrt(e) if SCALE is None else SCALE)
    out = run_matmul(probs, v.reshape(-1, sk, ev))
    return out.reshape(q.shape[:-1] + (ev,))
'''

SOURCE = HEADER + softmax.BODY + matmul.BODY + BODY
