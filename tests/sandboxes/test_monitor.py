import os

from sandboxes.monitor import ProcessGroupTree, exit_code, run_monitored


def _run(code: str, **overrides):
    limits = dict(wall_s=10.0, cpu_s=10.0, output_bytes=1000)
    limits.update(overrides)
    return run_monitored(["python", "-c", code], env=dict(os.environ), cwd="/", tree=ProcessGroupTree(), **limits)


def test_streams_and_exit_code():
    outcome = _run("import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)")
    assert (outcome.returncode, outcome.stdout, outcome.stderr) == (3, b"out\n", b"err\n")
    assert not (outcome.timed_out or outcome.stdout_truncated)


def test_output_is_capped_and_flagged():
    outcome = _run("print('x' * 50000)", output_bytes=100)
    assert outcome.stdout_truncated and len(outcome.stdout) == 100


def test_output_past_the_cap_is_drained_to_the_end_and_counted():
    """Past the cap the bytes go to /dev/null in the kernel; the job still finishes and its exit code comes back."""
    outcome = _run("import sys\nfor _ in range(64):\n    sys.stdout.write('x' * 65536)\nsys.stdout.flush()\n"
                   "sys.exit(5)", output_bytes=100)
    assert outcome.returncode == 5 and outcome.stdout_truncated and len(outcome.stdout) == 100


def test_wall_clock_kills_the_group():
    outcome = _run("import time; time.sleep(30)", wall_s=0.5)
    assert outcome.timed_out and outcome.returncode == 137 and outcome.wall_s < 5


def test_rlimit_cpu_flags_a_busy_loop_without_a_tree_budget():
    def rlimit():
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (1, 2))
    outcome = run_monitored(["python", "-c", "while True: pass"], env=dict(os.environ), cwd="/", wall_s=30,
                            cpu_s=1, output_bytes=100, tree=ProcessGroupTree(), preexec=rlimit)
    assert outcome.cpu_exceeded and not outcome.timed_out


def test_signal_exit_codes_follow_the_shell_convention():
    assert exit_code(9) == 128 + 9
    assert exit_code(3 << 8) == 3
