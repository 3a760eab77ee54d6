"""The two reports of an evaluation: SWE-bench's run report (the fields of
``swebench.harness.reporting.make_run_report``, schema 2) and the project's ``{"summary", "rows"}``.

Like SWE-bench's, the run report counts an instance as completed when its ``report.json`` exists, an
empty patch as neither run nor an error, and an instance whose patch did not apply (or whose tests could
not run) as an error; ``patch_apply_failed_ids`` is added to say which errors were patches that do not apply.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.report import Report
from benchmarks.resolve.evaluate import STATUSES, Outcome, log_dir
from benchmarks.resolve.grading import classify
from benchmarks.resolve.instances import Instance, Prediction


def swebench_report(instances: list[Instance], predictions: dict[str, Prediction], outcomes: dict[str, Outcome],
                    logs: Path) -> dict[str, Any]:
    """SWE-bench's run report over ``instances`` (an instance without a prediction is incomplete)."""
    ids = {status: sorted(i for i, o in outcomes.items() if o.status == status) for status in STATUSES}
    incomplete = sorted(i.instance_id for i in instances if i.instance_id not in predictions)
    errors = sorted(ids["error"] + ids["patch_failed"])
    reasons, infra, ambiguous = {}, [], []
    for instance_id in sorted(ids["unresolved"] + errors):
        folder = log_dir(logs, outcomes[instance_id].model, instance_id)
        found = classify(folder / "test_output.txt", folder / "run_instance.log")
        if found:
            reasons[instance_id] = found[0]
            (infra if found[1] else ambiguous).append(instance_id)
    completed = sorted(ids["resolved"] + ids["unresolved"])
    return {"total_instances": len(instances), "submitted_instances": len(predictions),
            "completed_instances": len(completed), "resolved_instances": len(ids["resolved"]),
            "unresolved_instances": len(ids["unresolved"]), "infra_failure_instances": len(infra),
            "ambiguous_failure_instances": len(ambiguous), "empty_patch_instances": len(ids["empty_patch"]),
            "error_instances": len(errors), "completed_ids": completed, "incomplete_ids": incomplete,
            "empty_patch_ids": ids["empty_patch"], "submitted_ids": sorted(predictions),
            "resolved_ids": ids["resolved"], "unresolved_ids": ids["unresolved"], "infra_failure_ids": infra,
            "ambiguous_failure_ids": ambiguous, "failure_reasons": reasons, "error_ids": errors,
            "schema_version": 2, "patch_apply_failed_ids": ids["patch_failed"]}


def row(outcome: Outcome) -> dict[str, Any]:
    """One table row per instance."""
    env = "" if outcome.env_reused is None else ("reused" if outcome.env_reused else "built")
    return {"instance_id": outcome.instance_id, "status": outcome.status, "reason": outcome.reason,
            "fail_to_pass": f"{outcome.fail_to_pass[0]}/{outcome.fail_to_pass[1]}",
            "pass_to_pass": f"{outcome.pass_to_pass[0]}/{outcome.pass_to_pass[1]}", "env": env,
            "env_s": outcome.env_seconds, "test_s": outcome.test_seconds, "seconds": outcome.seconds}


def build_report(instances: list[Instance], predictions: dict[str, Prediction], outcomes: dict[str, Outcome],
                 run_report: dict[str, Any], wall_s: float, extra: dict[str, Any]) -> Report:
    """The summary (counts, resolved rate, throughput, environments built and reused) and the rows."""
    evaluated = [outcomes[i.instance_id] for i in instances if i.instance_id in outcomes]
    total = run_report["total_instances"]
    summary = {**extra, "instances": total, "resolved": run_report["resolved_instances"],
               "resolved_pct": round(100.0 * run_report["resolved_instances"] / total, 2) if total else 0.0,
               "unresolved": run_report["unresolved_instances"], "empty_patch": run_report["empty_patch_instances"],
               "patch_failed": len(run_report["patch_apply_failed_ids"]), "error": run_report["error_instances"],
               "incomplete": len(run_report["incomplete_ids"]),
               "envs_built": sum(o.env_reused is False for o in evaluated),
               "envs_reused": sum(o.env_reused is True for o in evaluated),
               "wall_s": round(wall_s, 3),
               "instances_per_min": round(60.0 * len(evaluated) / wall_s, 2) if wall_s > 0 else None}
    return Report(summary=summary, rows=[row(o) for o in evaluated], title="SWE-bench-style resolution",
                  columns=["instance_id", "status", "reason", "fail_to_pass", "pass_to_pass", "env", "seconds"])
