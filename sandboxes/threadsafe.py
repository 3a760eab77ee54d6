"""Serialise ``ast.parse`` in this process on CPython 3.11.

CPython 3.11 can raise ``SystemError: AST constructor recursion depth mismatch`` when several
threads call ``ast.parse`` at once (python/cpython gh-106905, fixed in 3.12). The kernel harness
parses every source it verifies, and EvoKernel and ``agent bench kernels`` verify in worker threads,
so both install this lock before they start; parsing takes milliseconds, so nothing else is slowed.
"""

from __future__ import annotations

import ast
import functools
import sys
import threading

_LOCK = threading.Lock()


def serialise_ast_parse() -> None:
    """Wrap ``ast.parse`` in a process-wide lock (once; a no-op on Python 3.12 and later)."""
    if sys.version_info >= (3, 12) or getattr(ast.parse, "serialised", False):
        return
    original = ast.parse

    @functools.wraps(original)
    def parse(*args, **kwargs):
        with _LOCK:
            return original(*args, **kwargs)

    parse.serialised = True  # type: ignore[attr-defined]
    ast.parse = parse
