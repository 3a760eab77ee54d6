"""Only a verdict signed with this run's nonce counts, from a runner that exited cleanly, about this request;
the runners never import from the work dir."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.kernels.verifier.runner.launch import RUNNER_ARGV, EvalConfig, parse_verdict, request_digest
from benchmarks.kernels.verifier.runner.persistent import SERVER_ARGV
from benchmarks.kernels.verifier.runner.signing import sign
from sandboxes.base import RunResult


def line(nonce, payload):
    text = json.dumps(payload)
    return f"AKRESULT {sign(nonce, text)} {text}"


def test_signed_line_is_accepted_and_forged_lines_ignored():
    forged = 'AKRESULT 0000 {"status": "correct", "runtime_ms": 0.001}'
    stdout = "\n".join([forged, line("n1", {"status": "incorrect", "reason": "trial 1"})])
    assert parse_verdict(RunResult(0, stdout, ""), "n1", EvalConfig())["status"] == "incorrect"


def test_two_signed_verdicts_mean_tampering():
    stdout = "\n".join([line("n", {"status": "correct"}), line("n", {"status": "correct"})])
    assert parse_verdict(RunResult(0, stdout, ""), "n", EvalConfig())["status"] == "rejected"


def test_no_verdict_becomes_timeout_oom_or_crash():
    config = EvalConfig(timeout_s=7)
    assert parse_verdict(RunResult(-9, "", "", timed_out=True), "n", config)["reason"].endswith("7 s wall-clock limit")
    assert parse_verdict(RunResult(-9, "", "", oom_killed=True), "n", config)["status"] == "crashed"
    crash = parse_verdict(RunResult(1, "", "Traceback: boom"), "n", config)
    assert crash["status"] == "crashed" and "boom" in crash["reason"]
    assert parse_verdict(RunResult(0, line("other", {"status": "correct"}), ""), "n", config)["status"] == "crashed"


def test_a_runner_the_sandbox_could_not_start_is_a_sandbox_error_not_a_crash():
    config = EvalConfig()
    hidden_venv = RunResult(127, "", "unshare: failed to execute /tmp/venv/bin/python3: No such file or directory")
    verdict = parse_verdict(hidden_venv, "n", config)
    assert verdict["status"] == "sandbox_error" and "failed to execute /tmp/venv/bin/python3" in verdict["reason"]
    lost = RunResult(0, line("n", {"status": "correct"}), "", sandbox_error="the container runner died")
    assert parse_verdict(lost, "n", config) == {"status": "sandbox_error", "stage": "sandbox",
                                               "reason": "the container runner died"}
    assert parse_verdict(RunResult(127, "started, then exited 127", ""), "n", config)["status"] == "crashed"


def test_a_verdict_from_a_runner_that_did_not_exit_cleanly_is_not_believed():
    config = EvalConfig(timeout_s=7)
    good = line("n", {"status": "correct", "request": "r1"})
    for run, how in ((RunResult(137, good, ""), "killed by signal 9"), (RunResult(1, good, ""), "exited with code 1"),
                     (RunResult(0, good, "", timed_out=True), "wall-clock limit"),
                     (RunResult(0, good, "", oom_killed=True), "killed for memory")):
        verdict = parse_verdict(run, "n", config, "r1")
        assert (verdict["status"], verdict["stage"]) == ("crashed", "verdict") and how in verdict["reason"]
    assert parse_verdict(RunResult(0, good, ""), "n", config, "r1")["status"] == "correct"


def test_a_signed_verdict_about_another_request_is_not_believed():
    verdict = parse_verdict(RunResult(0, line("n", {"status": "correct", "request": "r2"}), ""), "n", EvalConfig(), "r1")
    assert verdict["status"] == "crashed" and "another request" in verdict["reason"]


def test_the_signature_covers_every_byte_of_the_verdict():
    text = line("n", {"status": "incorrect", "reason": "trial 1"})
    tampered = text.replace('"incorrect"', '"correct"  ')
    assert parse_verdict(RunResult(0, tampered, ""), "n", EvalConfig())["status"] == "crashed"


def test_the_request_digest_names_task_and_solution():
    assert request_digest("task", "a") != request_digest("task", "b") == request_digest("task", "b")


@pytest.mark.parametrize("argv", [RUNNER_ARGV, SERVER_ARGV], ids=["one-shot", "persistent"])
def test_a_module_planted_in_the_work_dir_is_not_what_the_runner_imports(argv, tmp_path):
    """The runners start in the work dir, which the solution's worker can write: a planted colorsys.py must not
    shadow the standard library's (the runner holds the signing key)."""
    (tmp_path / "colorsys.py").write_text("raise SystemExit('PLANTED')\n")
    flags = argv[:argv.index("-m")]
    done = subprocess.run([sys.executable, *flags, "-c", "import colorsys; print(colorsys.__file__)"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "PLANTED" not in done.stderr
    assert Path(done.stdout.strip()).parent != tmp_path
