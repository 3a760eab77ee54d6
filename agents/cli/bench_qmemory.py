"""`agent bench qmemory`: retrieval latency over a large Q-memory, postings index vs brute-force dense."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Optional

import typer

from agents.cli.common import emit_report
from agents.cli.groups import bench_app


@bench_app.command("qmemory")
def bench_qmemory(entries: Annotated[int, typer.Option(help="Memory entries to fill.")] = 100_000,
                  queries: Annotated[int, typer.Option(help="Timed retrievals per index and condition.")] = 200,
                  load: Annotated[bool, typer.Option(
                      "--load", help="Measure again while one CPU-burning process runs.")] = False,
                  words: Annotated[str, typer.Option(
                      help="Words per synthetic entry, MIN-MAX (longer fills more buckets).")] = "12-39",
                  query_words: Annotated[str, typer.Option(help="Words per query, MIN-MAX.")] = "12-39",
                  dim: Annotated[int, typer.Option(
                      help="Hash buckets of the TF-IDF embedding (more buckets: sparser vectors).")] = 256,
                  json_path: Annotated[Optional[Path], typer.Option("--json", help="Write the report here.")] = None
                  ) -> None:
    """Full retrievals (embed, recall, Q lookup, epsilon-greedy, fetch): p50/p95 per query of the postings
    index and of the brute-force dense product it replaced, side by side, with no added load and (--load)
    beside one busy process."""
    from memory.qmemory import QMemoryConfig
    from memory.qmemory.bench import run_retrieval_benchmark

    config = QMemoryConfig(embedding="hashed-tfidf", embedding_dim=dim)
    report = run_retrieval_benchmark(entries, queries, load=load, words=_word_range(words, "--words"),
                                     query_words=_word_range(query_words, "--query-words"), config=config)
    emit_report(report, json_path)


def _word_range(text: str, option: str) -> tuple[int, int]:
    """'12-39' -> (12, 40): the half-open range the generator draws lengths from."""
    from sandboxes.errors import UserError

    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text)
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise UserError(f"{option} must look like 12-39 (MIN-MAX, 1 <= MIN <= MAX), got '{text}'")
    return int(match[1]), int(match[2]) + 1
