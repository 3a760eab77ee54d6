"""Template text of the chunk stream that the softmax, norm and row_reduce families load through.

It sets one order of the pipes: when a chunk's MTE2 copy-in is issued, relative to the vector work and
scalar reads of the chunk before it. The templates using it define ``PREFETCH`` and ``BUFFER_NUM``."""

SOURCE = r'''

class ChunkStream:
    """The copy-ins of a known sequence of (offset, count) chunks of ``gm`` through one VECIN queue.

    PREFETCH 0 issues a chunk's MTE2 copy when the kernel asks for the chunk. When the chunk before it
    ended with a scalar read (GetValue waits for the vector pipe, and the scalar unit issues nothing
    meanwhile), MTE2 idles through that wait. PREFETCH 1 issues the next chunk's copy as soon as the
    current one is handed out, so it runs under the current chunk's vector work. That needs a second
    queue buffer: with BUFFER_NUM 1 the order is the same as with PREFETCH 0.
    """

    def __init__(self, queue, gm, chunks):
        self.queue, self.gm, self.chunks = queue, gm, chunks
        self.ahead = bool(PREFETCH) and BUFFER_NUM > 1
        if self.ahead:
            self.Issue(0)

    def Issue(self, k):
        """Copy chunk ``k`` of the sequence into a queue buffer (nothing past the last)."""
        if k < len(self.chunks):
            offset, n = self.chunks[k]
            x = self.queue.AllocTensor(self.gm.dtype)
            CopyIn(x, self.gm[offset], n)
            self.queue.EnQue(x)

    def Next(self, k):
        """Chunk ``k`` in UB. The kernel asks for the chunks in sequence order and frees each into the queue
        before asking for the next (the stream keeps no position of its own: kernels keep no state across calls)."""
        if not self.ahead:
            self.Issue(k)
        x = self.queue.DeQue()
        if self.ahead:
            self.Issue(k + 1)
        return x
'''
