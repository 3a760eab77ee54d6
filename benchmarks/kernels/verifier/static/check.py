"""Entry point of the allow-list: every violation in a parsed solution, host and device code alike."""

from __future__ import annotations

import ast

from benchmarks.kernels.verifier.static.analysis import Analysis
from benchmarks.kernels.verifier.static.paths import LANGUAGES
from benchmarks.kernels.verifier.static.device import check_device
from benchmarks.kernels.verifier.static.symbols import build_index
from sandboxes.targets.base import Violation


def allow_list_rule(tree: ast.Module, languages: tuple[str, ...] = LANGUAGES) -> list[Violation]:
    """The positive model as one static rule: what the module's code may call, name and compute, for a
    target whose solutions write kernels in ``languages``."""
    analysis = Analysis(build_index(tree), languages)
    analysis.run()
    check_device(analysis)
    return sorted(analysis.found, key=lambda v: (v.line, v.rule, v.message))
