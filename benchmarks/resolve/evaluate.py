"""Evaluate one prediction: check out the base commit, apply the model patch then the test patch, run the
tests in the sandbox (network off) and grade the log with SWE-bench's grader.

Each instance leaves SWE-bench's per-instance files in ``<logs>/<model>/<instance_id>/``: ``patch.diff``,
``eval.sh``, ``test_output.txt``, ``run_instance.log`` and, when the tests ran to the end, ``report.json``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from sandboxes.base import Limits, Sandbox
from sandboxes.errors import UserError
from sandboxes.telemetry import emit

from benchmarks.repo.checkout import RepoCache
from benchmarks.resolve.envs import EnvCache, EnvError, Environment
from benchmarks.resolve.grading import grade
from benchmarks.resolve.instances import Instance, Prediction
from benchmarks.resolve.specs import EnvSpec, eval_script
from benchmarks.resolve.tree import apply_patch, export_tree, read_tree

SCRIPT = "_agentkiln_eval.sh"
APPLY_FAIL = ">>>>> Patch Apply Failed"
APPLY_PASS = ">>>>> Applied Patch"
TIMEOUT_MARK = ">>>>> Tests Timed Out"
STATUSES = ("resolved", "unresolved", "empty_patch", "patch_failed", "error")


@dataclass
class EvalContext:
    """What every evaluation of a run shares."""

    cache: RepoCache
    envs: EnvCache
    sandbox: Sandbox
    logs: Path
    """SWE-bench's ``logs/run_evaluation/<run_id>`` folder of this run."""
    limits: Limits
    specs: dict[str, dict[str, EnvSpec]] = field(default_factory=dict)


@dataclass
class Outcome:
    """One instance's result: its status (one of :data:`STATUSES`), why, and where the time went."""

    instance_id: str
    model: str
    status: str
    reason: str = ""
    fail_to_pass: list[int] = field(default_factory=lambda: [0, 0])
    """[passed, listed] FAIL_TO_PASS tests."""
    pass_to_pass: list[int] = field(default_factory=lambda: [0, 0])
    """[still passing, listed] PASS_TO_PASS tests."""
    env_key: str = ""
    env_reused: bool | None = None
    env_seconds: float = 0.0
    test_seconds: float = 0.0
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Outcome":
        return cls(**data)


def log_dir(logs: Path, model: str, instance_id: str) -> Path:
    """SWE-bench's per-instance log folder."""
    return logs / model.replace("/", "__") / instance_id


class _Log:
    """``run_instance.log``: what the harness did, line by line."""

    def __init__(self, path: Path):
        self.path, self.lines = path, []

    def say(self, text: str) -> None:
        self.lines.append(text)

    def write(self) -> None:
        self.path.write_text("\n".join(self.lines) + "\n")


def evaluate(instance: Instance, prediction: Prediction, ctx: EvalContext, spec: EnvSpec) -> Outcome:
    """Evaluate ``prediction`` on ``instance``; never raises for a problem of the instance (it becomes the status)."""
    started = time.perf_counter()
    folder = log_dir(ctx.logs, prediction.model_name_or_path, instance.instance_id)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "patch.diff").write_text(prediction.model_patch or "")
    outcome = Outcome(instance.instance_id, prediction.model_name_or_path, "empty_patch")
    log = _Log(folder / "run_instance.log")
    try:
        if not prediction.empty:
            _run(instance, prediction, ctx, spec, folder, outcome, log)
    except (UserError, EnvError) as error:
        outcome.status, outcome.reason = "error", f"{'environment: ' if isinstance(error, EnvError) else ''}{error}"
        log.say(f"error: {outcome.reason}")
    finally:
        outcome.seconds = round(time.perf_counter() - started, 3)
        log.write()
    emit("resolve.instance", instance_id=instance.instance_id, status=outcome.status, seconds=outcome.seconds)
    return outcome


def _run(instance: Instance, prediction: Prediction, ctx: EvalContext, spec: EnvSpec, folder: Path,
         outcome: Outcome, log: _Log) -> None:
    env = ctx.envs.get(instance.repo, instance.version, spec)
    outcome.env_key, outcome.env_reused, outcome.env_seconds = env.key, env.reused, env.seconds
    log.say(f"environment {env.key}: {'reused' if env.reused else 'built'} in {env.seconds:.2f} s")
    scratch = Path(tempfile.mkdtemp(prefix="resolve-"))
    try:
        tree = scratch / "repo"
        export_tree(ctx.cache.clone(instance.repo), ctx.cache.snapshot(instance.repo, instance.base_commit).commit, tree)
        log.say(f"checked out {instance.repo} at {instance.base_commit}")
        if not _apply(tree, prediction.model_patch or "", "model", outcome, log):
            return
        if instance.test_patch and not _apply(tree, instance.test_patch, "test", outcome, log):
            outcome.status, outcome.reason = "error", "the test patch does not apply after the model patch"
            return
        _test(instance, prediction, ctx, spec, env, read_tree(tree), folder, outcome, log)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _apply(tree: Path, patch: str, name: str, outcome: Outcome, log: _Log) -> bool:
    applied = apply_patch(tree, patch, name)
    log.say(applied.log)
    if applied.ok:
        log.say(f"{APPLY_PASS} ({name} patch, {applied.command})")
        return True
    log.say(f"{APPLY_FAIL} ({name} patch)")
    outcome.status, outcome.reason = "patch_failed", f"the {name} patch does not apply"
    return False


def _test(instance: Instance, prediction: Prediction, ctx: EvalContext, spec: EnvSpec, env: Environment,
          files: dict[str, bytes], folder: Path, outcome: Outcome, log: _Log) -> None:
    script = eval_script(instance, spec, env.bin)
    (folder / "eval.sh").write_text(script)
    limits = ctx.limits.model_copy(update={"extra_ro_paths": [*ctx.limits.extra_ro_paths, *env.readonly]})
    result = ctx.sandbox.run(["bash", SCRIPT], files={**files, SCRIPT: script.encode()}, limits=limits)
    outcome.test_seconds = round(result.wall_s, 3)
    log.say(f"sandbox {result.backend}: exit {result.returncode}, {result.wall_s:.2f} s"
            + (f", notes: {'; '.join(result.notes)}" if result.notes else ""))
    output = result.stdout + (f"\n{result.stderr}" if result.stderr.strip() else "")
    if result.sandbox_error:
        outcome.status, outcome.reason = "error", f"the sandbox failed: {result.sandbox_error}"
    elif result.timed_out or result.cpu_exceeded:
        output += f"\n\nTimeout error: {int(ctx.limits.wall_s)} seconds exceeded.\n{TIMEOUT_MARK}\n"
        outcome.status, outcome.reason = "error", f"the tests ran past the limit of {ctx.limits.wall_s:g} s"
    (folder / "test_output.txt").write_text(output)
    if outcome.status == "error":
        return
    report = grade(instance, prediction, spec, folder / "test_output.txt")
    (folder / "report.json").write_text(json.dumps({instance.instance_id: report}, indent=4) + "\n")
    _score(report, outcome)


def _score(report: dict, outcome: Outcome) -> None:
    tests = report.get("tests_status") or {}
    for key, target in (("FAIL_TO_PASS", outcome.fail_to_pass), ("PASS_TO_PASS", outcome.pass_to_pass)):
        success, failure = len(tests.get(key, {}).get("success", [])), len(tests.get(key, {}).get("failure", []))
        target[:] = [success, success + failure]
    outcome.status = "resolved" if report.get("resolved") else "unresolved"
    if not report.get("patch_successfully_applied"):
        outcome.reason = "no test results in the log (the tests did not run)"
    elif not report.get("resolved"):
        outcome.reason = (f"FAIL_TO_PASS {outcome.fail_to_pass[0]}/{outcome.fail_to_pass[1]}, "
                          f"PASS_TO_PASS {outcome.pass_to_pass[0]}/{outcome.pass_to_pass[1]}")
