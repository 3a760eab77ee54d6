"""The ``--executor`` flag of commands that fan evaluations out: local (default), ray or ray://HOST:PORT."""

from __future__ import annotations

import contextlib
from typing import Annotated, Iterator, Optional

import typer

from benchmarks.executor import SPEC_HELP, Executor, make_executor

ExecutorOption = Annotated[Optional[str], typer.Option("--executor", help=SPEC_HELP)]


@contextlib.contextmanager
def opened_executor(spec: str | None, sandbox: str | None) -> Iterator[Executor]:
    """The executor ``spec`` names, with its nodes evaluating in ``sandbox``; closed (cluster left) afterwards."""
    executor = make_executor(spec, sandbox)
    try:
        yield executor
    finally:
        executor.close()
