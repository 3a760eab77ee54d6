"""Retrieval benchmark: full retrievals over a large synthetic memory, with the postings index and
with a brute-force dense index (with all BLAS threads, and capped at one),
measured in one run as the machine is and (``load=True``) again while one CPU-burning process runs."""

from __future__ import annotations

import contextlib
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from benchmarks.report import Report

from memory.qmemory.config import QMemoryConfig
from memory.qmemory.dense import DenseIndex
from memory.qmemory.entries import EntryKind, MemoryEntry
from memory.qmemory.index import Index
from memory.qmemory.memory import QMemory, QUpdate
from memory.qmemory.store import KIND_CODES

WORDS = np.array((
    "tile tiling block_dim buffer double single queue VECIN VECOUT DataCopy Add Mul Exp ReduceSum ReduceMax "
    "softmax layernorm rmsnorm relu gelu sigmoid matmul conv pooling cumsum UB overflow alignment misaligned "
    "MTE2 MTE3 VEC CUBE bottleneck latency faster slower correct incorrect compile error fp16 fp32 bf16 "
    "broadcast stride repeat fractal L0A L0B L0C L1 Mmad cores bandwidth roofline fused bias activation").split())
NAMES = np.array(["".join(chr(97 + n // 26 ** place % 26) for place in range(3)) for n in range(5000)])
KINDS = [EntryKind.EXPERIENCE, EntryKind.TRACE, EntryKind.PRACTICE, EntryKind.API]
RETRIEVED_KINDS = [EntryKind.EXPERIENCE, EntryKind.TRACE, EntryKind.PRACTICE]
KIND_FILTER = [KIND_CODES[kind] for kind in RETRIEVED_KINDS]
STATISTICS = [("retrieve", 50, "p50"), ("retrieve", 95, "p95"), ("retrieve_cpu", 50, "p50"),
              ("retrieve_cpu", 95, "p95"), ("search", 50, "p50"), ("search", 95, "p95")]
METHODS = ("postings index", "brute-force dense, 1 BLAS thread", "brute-force dense, all BLAS threads")
PREVIOUS = METHODS[2]
CONDITIONS = ("no added load", "+1 busy process")  # the machine's own load is reported beside each


def synthetic_entries(count: int, seed: int, words: tuple[int, int] = (12, 40)) -> list[MemoryEntry]:
    """``count`` distinct entries of ``words`` (low inclusive, high exclusive) words plus an id token, all four
    kinds. Each word is a domain word or, as often, one of 5000 identifiers with Zipf frequencies (as names
    and numbers in code and feedback are). Longer entries fill more of the embedding's buckets."""
    rng = np.random.default_rng(seed)
    cumulative = np.cumsum(1.0 / np.arange(1, len(NAMES) + 1))
    entries = []
    for i in range(count):
        size = int(rng.integers(*words))
        names = NAMES[np.searchsorted(cumulative, rng.random(size) * cumulative[-1])]
        drawn = np.where(rng.random(size) < 0.5, rng.choice(WORDS, size=size), names)
        entries.append(MemoryEntry(kind=KINDS[i % 4], text=f"e{i} " + " ".join(drawn), task=f"task{i % 97}"))
    return entries


def run_retrieval_benchmark(entries: int = 100_000, queries: int = 200, seed: int = 0, load: bool = False,
                            words: tuple[int, int] = (12, 40), query_words: tuple[int, int] = (12, 40),
                            config: QMemoryConfig | None = None, workdir: Path | None = None) -> Report:
    """Fill a memory with ``entries`` items and time ``queries`` full retrievals (embed, recall, Q lookup,
    epsilon-greedy, fetch) per index and condition; queries are drawn like entries of ``query_words`` words."""
    config = config or QMemoryConfig(embedding="hashed-tfidf", seed=seed)
    texts = [e.text for e in synthetic_entries(queries, seed + 1, query_words)]
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        build_s, memory = _build(Path(tmp) / "bench.sqlite", entries, seed, words, config)
        indexes = {METHODS[0]: memory.index, METHODS[1]: _dense_copy(memory, 1), PREVIOUS: _dense_copy(memory, None)}
        k = max(config.top_n, math.ceil(config.recall_factor * config.top_n))
        same = _same_candidates(memory, indexes, texts, k)
        rows, summary = [], {}
        for condition in CONDITIONS if load else CONDITIONS[:1]:
            with busy_process() if condition == CONDITIONS[1] else contextlib.nullcontext({}) as burner:
                measured = _measure(memory, indexes, texts, k, seed)
            rows += [{"condition": condition, "index": name, **numbers} for name, numbers in measured.items()]
            summary.update(_condition_summary(condition, measured, burner))
        memory.close()
    head = {"entries": entries, "queries": queries, "words_per_entry": f"{words[0]}-{words[1] - 1}",
            "words_per_query": f"{query_words[0]}-{query_words[1] - 1}",
            "embedder": memory.embedder.name, "recall_k": k,
            "top_n": config.top_n, "build_s": round(build_s, 2), "cpus": os.cpu_count(),
            "same_candidates": f"{same}/{queries}"}
    return Report(summary={**head, **summary}, rows=rows,
                  title=f"Q-memory retrieval over {entries} entries: postings index vs brute-force dense")


def _build(path: Path, count: int, seed: int, words: tuple[int, int],
           config: QMemoryConfig) -> tuple[float, QMemory]:
    start = time.perf_counter()
    memory = QMemory(path, config)
    entries = synthetic_entries(count, seed, words)
    for offset in range(0, count, 10_000):
        batch = entries[offset:offset + 10_000]
        memory.store.add_entries(batch, memory.embedder.embed([e.text for e in batch]))
    memory.sync()
    rng = np.random.default_rng(seed)
    for attempt in range(count // 100):
        ids = rng.integers(1, count + 1, size=config.top_n).tolist()
        memory.learn(f"bench{attempt}", [QUpdate("draft", "sig0", ids)], float(rng.choice([-1.0, 1.0])))
    return time.perf_counter() - start, memory


def _dense_copy(memory: QMemory, blas_threads: int | None) -> DenseIndex:
    """The brute-force baseline over the same stored vectors: one float32 matrix-vector product per query."""
    dense = DenseIndex(memory.embedder.dim, memory.embedder.column_weights, memory.config.idf_exact_below,
                       blas_threads)
    ids, kinds, blobs = memory.store.vectors_since(0)
    dense.add(ids, kinds, np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), memory.embedder.dim))
    return dense


def _same_candidates(memory: QMemory, indexes: dict[str, Index], texts: list[str], k: int) -> int:
    """How many queries recall the same ``k`` candidate ids, in the same order, from every index."""
    same = 0
    for text in texts:
        raw = memory.embedder.embed([text])[0]
        found = {tuple(index.search(raw, k, KIND_FILTER)[0].tolist()) for index in indexes.values()}
        same += len(found) == 1
    return same


def _measure(memory: QMemory, indexes: dict[str, Index], texts: list[str], k: int,
             seed: int) -> dict[str, dict[str, float]]:
    """Per index, all queries in a row: p50/p95 wall time of a full retrieve and of the index search alone,
    and the CPU time of a retrieve (the work itself: a wall-time tail above it is time spent waiting for a CPU)."""
    results = {}
    for name, index in indexes.items():
        memory.index, rng = index, np.random.default_rng(seed)
        times: dict[str, list[float]] = {"retrieve": [], "retrieve_cpu": [], "search": []}
        for position, text in enumerate([texts[0]] + texts):  # the first query warms up and is not counted
            wall, cpu = _elapsed_ms(lambda: memory.retrieve(text, "draft", "sig0", RETRIEVED_KINDS, rng=rng))
            search_wall, _ = _elapsed_ms(lambda: index.search(memory.embedder.embed([text])[0], k, KIND_FILTER))
            if position:
                for step, value in (("retrieve", wall), ("retrieve_cpu", cpu), ("search", search_wall)):
                    times[step].append(value)
        results[name] = {f"{step}_{label}_ms": round(float(np.percentile(times[step], q)), 3)
                         for step, q, label in STATISTICS}
        time.sleep(0.5)  # idle BLAS threads spin for a while after their last product: let them park
    memory.index = indexes[METHODS[0]]
    return results


def _elapsed_ms(call: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU of this process: every thread, BLAS workers too) milliseconds one call takes."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def _condition_summary(condition: str, measured: dict[str, dict[str, float]], burner: dict) -> dict:
    new, old = measured[METHODS[0]], measured[PREVIOUS]
    prefix = "" if condition == CONDITIONS[0] else "loaded_"
    summary = {f"{prefix}retrieve_ms_p50": new["retrieve_p50_ms"], f"{prefix}retrieve_ms_p95": new["retrieve_p95_ms"],
               f"{prefix}dense_retrieve_ms_p50": old["retrieve_p50_ms"],
               f"{prefix}dense_retrieve_ms_p95": old["retrieve_p95_ms"],
               f"{prefix}speedup_p50": round(old["retrieve_p50_ms"] / new["retrieve_p50_ms"], 2),
               f"{prefix}speedup_p95": round(old["retrieve_p95_ms"] / new["retrieve_p95_ms"], 2)}
    summary[f"{prefix}machine_load_1min"] = round(os.getloadavg()[0], 2)
    if burner:
        summary["load_cpu_fraction"] = burner["cpu_fraction"]
    return summary


@contextlib.contextmanager
def busy_process() -> Iterator[dict]:
    """Run one CPU-burning process for the duration; the yielded dict holds its ``pid`` and, afterwards,
    ``cpu_fraction``, the share of one CPU it actually burned (evidence that the load was there)."""
    before = os.times()
    process = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    result: dict = {"pid": process.pid}
    try:
        time.sleep(0.2)
        yield result
    finally:
        process.kill()
        process.wait()
        after = os.times()
        busy = (after.children_user + after.children_system) - (before.children_user + before.children_system)
        result["cpu_fraction"] = round(busy / max(after.elapsed - before.elapsed, 1e-9), 2)
