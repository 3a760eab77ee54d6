"""Grading with SWE-bench's own code: its log parsers, ``get_eval_report`` and failure classification.

Nothing here re-implements SWE-bench: the test log is written in its format (the markers of
``benchmarks.resolve.specs``) and handed to the ``swebench`` package, which must be installed
(``pip install 'agentkiln[swebench]'``). Importing it takes a few seconds (it loads ``datasets``), so it
happens on first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sandboxes.errors import UserError

from benchmarks.resolve.instances import Instance, Prediction
from benchmarks.resolve.specs import EnvSpec

INSTALL_HINT = "pip install 'agentkiln[swebench]' (the swebench package, 5.0.2)"


def swebench_version() -> str:
    """The installed swebench version; a UserError saying how to install it when it is missing."""
    try:
        import swebench
    except ImportError:
        raise UserError(f"grading needs SWE-bench's own grader: {INSTALL_HINT}") from None
    return swebench.__version__


def check_parser(name: str) -> None:
    """A UserError unless ``name`` is one of SWE-bench's log parsers."""
    swebench_version()
    from swebench.harness.log_parsers import PARSER_REGISTRY

    if name not in PARSER_REGISTRY:
        raise UserError(f"unknown SWE-bench log parser {name!r} (known: {', '.join(sorted(PARSER_REGISTRY)[:6])}, ...)")


def grade(instance: Instance, prediction: Prediction, spec: EnvSpec, test_log: Path) -> dict[str, Any]:
    """SWE-bench's per-instance report (``patch_successfully_applied``, ``resolved``, ``tests_status``, ...)
    from the test log, exactly as its harness computes it."""
    from swebench.harness.grading import get_eval_report
    from swebench.types import TestSpec

    test_spec = TestSpec(instance_id=instance.instance_id, image="", eval_script_list=[], repo=instance.repo,
                         version=instance.version, FAIL_TO_PASS=instance.fail_to_pass,
                         PASS_TO_PASS=instance.pass_to_pass, log_parser=spec.log_parser, eval_type=spec.eval_type)
    report = get_eval_report(test_spec, prediction.to_row(), str(test_log), include_tests_status=True)
    return report[instance.instance_id]


def classify(*logs: Path) -> tuple[str, bool] | None:
    """SWE-bench's advisory failure classification of an instance's logs: (reason, environment fault)."""
    from swebench.harness.infra_failure import TIER_ENVIRONMENT, classify_logs

    found = classify_logs(*logs)
    return (found[0], found[1] == TIER_ENVIRONMENT) if found else None
