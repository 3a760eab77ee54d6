"""Retrieval benchmark: query latency over a large synthetic memory, argpartition against a full sort."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.report import Report

from memory.qmemory.config import QMemoryConfig
from memory.qmemory.entries import EntryKind, MemoryEntry
from memory.qmemory.memory import QMemory, QUpdate

WORDS = ("tile tiling block_dim buffer double single queue VECIN VECOUT DataCopy Add Mul Exp ReduceSum ReduceMax "
         "softmax layernorm rmsnorm relu gelu sigmoid matmul conv pooling cumsum UB overflow alignment misaligned "
         "MTE2 MTE3 VEC CUBE bottleneck latency faster slower correct incorrect compile error fp16 fp32 bf16 "
         "broadcast stride repeat fractal L0A L0B L0C L1 Mmad cores bandwidth roofline fused bias activation").split()
KINDS = [EntryKind.EXPERIENCE, EntryKind.TRACE, EntryKind.PRACTICE, EntryKind.API]


def synthetic_entries(count: int, seed: int) -> list[MemoryEntry]:
    """``count`` distinct entries of 12-40 domain words (plus an id token), all four kinds."""
    rng = np.random.default_rng(seed)
    entries = []
    for i in range(count):
        words = rng.choice(WORDS, size=int(rng.integers(12, 40)))
        entries.append(MemoryEntry(kind=KINDS[i % 4], text=f"e{i} " + " ".join(words), task=f"task{i % 97}"))
    return entries


def run_retrieval_benchmark(entries: int = 100_000, queries: int = 200, seed: int = 0,
                            config: QMemoryConfig | None = None, workdir: Path | None = None) -> Report:
    """Fill a memory with ``entries`` items and time ``queries`` full retrievals (embed, recall, Q, select)."""
    config = config or QMemoryConfig(embedding="hashed-tfidf", seed=seed)
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        build_s, memory = _build(Path(tmp) / "bench.sqlite", entries, seed, config)
        texts = [e.text for e in synthetic_entries(queries, seed + 1)]
        kinds = [EntryKind.EXPERIENCE, EntryKind.TRACE, EntryKind.PRACTICE]
        full = _time(lambda t: memory.retrieve(t, "draft", "sig0", kinds), texts)
        query_vecs = [memory.embedder.embed([t])[0] for t in texts]
        k = int(np.ceil(config.recall_factor * config.top_n))
        partition = _time(lambda v: memory.index.search(v, k), query_vecs)
        full_sort = _time(lambda v: _full_sort_search(memory, v, k), query_vecs)
        memory.close()
    summary = {
        "entries": entries, "queries": queries, "embedder": memory.embedder.name, "dim": memory.embedder.dim,
        "recall_k": k, "top_n": config.top_n, "build_s": round(build_s, 2),
        "retrieve_ms_p50": full[0], "retrieve_ms_p95": full[1],
        "index_search_ms_p50": partition[0], "full_sort_search_ms_p50": full_sort[0],
        "argpartition_speedup_over_full_sort": round(full_sort[0] / partition[0], 2) if partition[0] else None,
    }
    rows = [{"step": "retrieve (embed + recall + Q lookup + epsilon-greedy + fetch)", "p50_ms": full[0],
             "p95_ms": full[1]},
            {"step": "index search, argpartition", "p50_ms": partition[0], "p95_ms": partition[1]},
            {"step": "index search, full argsort (baseline)", "p50_ms": full_sort[0], "p95_ms": full_sort[1]}]
    return Report(summary=summary, rows=rows, title=f"Q-memory retrieval over {entries} entries")


def _build(path: Path, count: int, seed: int, config: QMemoryConfig) -> tuple[float, QMemory]:
    start = time.perf_counter()
    memory = QMemory(path, config)
    entries = synthetic_entries(count, seed)
    for offset in range(0, count, 10_000):
        batch = entries[offset:offset + 10_000]
        memory.store.add_entries(batch, memory.embedder.embed([e.text for e in batch]))
    memory.sync()
    rng = np.random.default_rng(seed)
    for attempt in range(count // 100):
        ids = rng.integers(1, count + 1, size=config.top_n).tolist()
        memory.learn(f"bench{attempt}", [QUpdate("draft", "sig0", ids)], float(rng.choice([-1.0, 1.0])))
    return time.perf_counter() - start, memory


def _full_sort_search(memory: QMemory, raw: np.ndarray, k: int) -> np.ndarray:
    index = memory.index
    scores = index._matrix[: len(index)] @ index.weigh_query(raw)
    return np.argsort(-scores)[:k]


def _time(call, inputs) -> tuple[float, float]:
    """Median and 95th percentile wall time in milliseconds, after one warm-up call."""
    call(inputs[0])
    times = []
    for item in inputs:
        start = time.perf_counter()
        call(item)
        times.append((time.perf_counter() - start) * 1000)
    return round(float(np.median(times)), 3), round(float(np.percentile(times, 95)), 3)
