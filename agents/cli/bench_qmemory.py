"""`agent bench qmemory`: retrieval latency over a large Q-memory, postings index vs brute-force dense."""

from __future__ import annotations

import re
from typing import Annotated

import typer

from agents.cli.common import run_benchmark
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output


@bench_app.command("qmemory")
@with_output
def bench_qmemory(entries: Annotated[int, typer.Option(min=1, help="Memory entries to fill.")] = 100_000,
                  queries: Annotated[int, typer.Option(min=1, help="Timed retrievals per index and condition.")] = 200,
                  load: Annotated[bool, typer.Option(
                      "--load", help="Measure again while one CPU-burning process runs.")] = False,
                  words: Annotated[str, typer.Option(
                      help="Words per synthetic entry, MIN-MAX (longer fills more buckets).")] = "12-39",
                  query_words: Annotated[str, typer.Option(help="Words per query, MIN-MAX.")] = "12-39",
                  dim: Annotated[int, typer.Option(
                      min=1, help="Hash buckets of the TF-IDF embedding (more buckets: sparser vectors).")] = 256,
                  *, output: Output) -> None:
    """Full retrievals (embed, recall, Q lookup, epsilon-greedy, fetch): p50/p95 per query of the postings
    index and of a brute-force dense product, side by side, with no added load and (--load)
    beside one busy process."""
    from memory.qmemory import QMemoryConfig
    from memory.qmemory.bench import run_retrieval_benchmark

    config = QMemoryConfig(embedding="hashed-tfidf", embedding_dim=dim)
    word_range, query_range = _word_range(words, "--words"), _word_range(query_words, "--query-words")
    settings = {"entries": entries, "queries": queries, "load": load, "words": words, "query_words": query_words,
                "dim": dim}
    run, report = run_benchmark("bench-qmemory", settings, lambda run: run_retrieval_benchmark(
        entries, queries, load=load, words=word_range, query_words=query_range, config=config))
    output.report(report, run)


def _word_range(text: str, option: str) -> tuple[int, int]:
    """'12-39' -> (12, 40): the half-open range the generator draws lengths from."""
    from sandboxes.errors import UserError

    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text)
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise UserError(f"{option} must look like 12-39 (MIN-MAX, 1 <= MIN <= MAX), got '{text}'")
    return int(match[1]), int(match[2]) + 1
