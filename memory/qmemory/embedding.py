"""Offline text embeddings: hashed TF-IDF by default, a local sentence-transformer if one is installed.

An embedder turns texts into *raw* vectors (stored in SQLite). ``column_weights`` returns the
weights the index multiplies the raw vectors by before normalising: the IDF of each hash bucket
for TF-IDF, ``None`` for an embedder whose vectors are final. ``sparse`` says whether the raw
vectors are mostly zeros (then the index keeps posting lists instead of a dense matrix).
"""

from __future__ import annotations

import importlib.util
import math
import re
import zlib
from typing import Protocol

import numpy as np

from sandboxes.errors import UserError

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?|[^\sA-Za-z0-9_]{1,2}")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


class Embedder(Protocol):
    """Text to vectors, offline."""

    name: str
    dim: int
    sparse: bool

    def embed(self, texts: list[str]) -> np.ndarray:
        """Raw vectors, shape (len(texts), dim), float32."""
        ...

    def column_weights(self, df: np.ndarray, n: int) -> np.ndarray | None:
        """Per-dimension weights from the document frequency of each dimension over ``n`` stored vectors, or None."""
        ...


def tokens(text: str) -> list[str]:
    """Lower-cased words, their camelCase/snake_case parts, and short symbol runs (``+=``, ``**``)."""
    out: list[str] = []
    for word in _WORD.findall(text):
        lowered = word.lower()
        out.append(lowered)
        parts = [p.lower() for chunk in word.split("_") for p in _CAMEL.findall(chunk)]
        if len(parts) > 1:
            out.extend(parts)
    return out


class HashedTfidfEmbedder:
    """Signed feature hashing of sublinear term frequencies; IDF is fitted on the memory itself."""

    sparse = True

    def __init__(self, dim: int = 256):
        if dim < 8:
            raise UserError(f"embedding_dim must be at least 8, got {dim}")
        self.dim = dim
        self.name = f"hashed-tfidf-{dim}"

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            counts: dict[str, int] = {}
            for token in tokens(text):
                counts[token] = counts.get(token, 0) + 1
            for token, count in counts.items():
                code = zlib.crc32(token.encode())
                sign = 1.0 if code & 0x80000000 else -1.0
                out[row, code % self.dim] += sign * (1.0 + math.log(count))
        return out

    def column_weights(self, df: np.ndarray, n: int) -> np.ndarray | None:
        """Smoothed IDF per bucket: log((1 + n) / (1 + df)) + 1."""
        return (np.log((1.0 + n) / (1.0 + df)) + 1.0).astype(np.float32)


class SentenceTransformerEmbedder:
    """A sentence-transformer loaded from the local disk only (no hub access at run time)."""

    sparse = False

    def __init__(self, model: str):
        import os

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(model, device="cpu")
        self.dim = int(self._model.get_sentence_embedding_dimension())
        self.name = f"sentence-transformer:{model}"

    def embed(self, texts: list[str]) -> np.ndarray:
        vectors = self._model.encode(texts, batch_size=32, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    def column_weights(self, df: np.ndarray, n: int) -> np.ndarray | None:
        return None


DEFAULT_SENTENCE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def make_embedder(spec: str, dim: int = 256) -> Embedder:
    """Build the embedder named by ``spec`` (see ``QMemoryConfig.embedding``)."""
    if spec == "hashed-tfidf" or spec.startswith("hashed-tfidf-"):
        return HashedTfidfEmbedder(int(spec.rsplit("-", 1)[1]) if spec.startswith("hashed-tfidf-") else dim)
    if spec.startswith("sentence-transformer"):
        if importlib.util.find_spec("sentence_transformers") is None:
            raise UserError("embedding 'sentence-transformer' needs `pip install sentence-transformers` "
                            "and a model on local disk; use --embedding hashed-tfidf instead")
        model = spec.partition(":")[2] or DEFAULT_SENTENCE_MODEL
        try:
            return SentenceTransformerEmbedder(model)
        except Exception as error:  # a missing local model surfaces as assorted hub/OS errors
            raise UserError(f"cannot load sentence-transformer '{model}' from local disk: {error}") from error
    if spec == "auto":
        if importlib.util.find_spec("sentence_transformers") is not None:
            try:
                return SentenceTransformerEmbedder(DEFAULT_SENTENCE_MODEL)
            except Exception:  # no cached model: the offline default below is the documented fallback
                pass
        return HashedTfidfEmbedder(dim)
    raise UserError(f"unknown embedding '{spec}': use hashed-tfidf, sentence-transformer[:MODEL] or auto")
