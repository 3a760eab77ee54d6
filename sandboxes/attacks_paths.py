"""Selftest cases on the ``session`` and ``spawn`` paths: the same supervisor, syscall and leftover checks as
for ``run``, through a session's successive commands and through a long-lived spawned process."""

from __future__ import annotations

from sandboxes.attack_kit import TIGHT, Attack, flags
from sandboxes.attacks_runner import PROBE, SYSCALLS, supervisors_reached, syscall_numbers, tagged, unblocked_calls
from sandboxes.base import Sandbox

DAEMON = """
import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "300"])  # renamed: nothing of the case left in its command line
    os._exit(0)
"""

OTHERS = """
import os
mine = (1, os.getpid(), os.getppid())
print("OTHERS", sorted(int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in mine))
"""

READ_TIMEOUT_S = 60.0


def session_path(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """A session's first command probes its supervisor and leaves a daemon; the next one must not see it."""
    with sandbox.open(TIGHT) as session:
        first = session.exec(["python", "-c", PROBE + DAEMON + f"probe_supervisors()\n# {marker}"])
        second = session.exec(["python", "-c", OTHERS])
    reached = supervisors_reached(first.stdout)
    others = second.stdout.split("OTHERS", 1)[-1].strip()
    ok = tagged(first.stdout, "PROBE") is not None and not reached and others == "[]"
    return ok, f"{flags(first)}; supervisors reached: {reached or 'none'}; the next command saw processes {others}"


def spawn_path(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """A spawned process probes its supervisor and the blocked calls, leaves a daemon and answers a request."""
    code = PROBE + SYSCALLS + DAEMON + f"""
import sys
probe_supervisors()
probe_syscalls({syscall_numbers()!r})
for line in sys.stdin:
    print("echo " + line.strip(), flush=True)
# {marker}
"""
    with sandbox.spawn(["python", "-u", "-c", code], limits=TIGHT) as process:
        lines = [process.read_line(READ_TIMEOUT_S).decode(errors="replace") for _ in range(2)]
        process.write(b"ping\n")
        echo = process.read_line(READ_TIMEOUT_S).decode(errors="replace")
    stdout = "\n".join(lines)
    reached, calls = supervisors_reached(stdout), unblocked_calls(stdout)
    probed = tagged(stdout, "PROBE") is not None and tagged(stdout, "SYSCALLS") is not None
    ok = echo == "echo ping" and probed and not reached and not calls
    return ok, f"supervisors reached: {reached or 'none'}; calls not blocked: {calls or 'none'}; answer {echo!r}"


def spawn_planted_module(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """A spawned process's files include platform.py (which the seccomp filter's loader imports): it must not run
    before the filter; the process then reports its CPU limit, which a run's job gets too."""
    planted = f"print('PLANTED {marker}', flush=True)\n"
    code = "import resource\nprint('CPU', resource.getrlimit(resource.RLIMIT_CPU)[0], flush=True)\n"
    with sandbox.spawn(["python", "-u", "-c", code], files={"platform.py": planted.encode()}, limits=TIGHT) as process:
        lines = [process.read_line(READ_TIMEOUT_S).decode(errors="replace") for _ in range(1)]
    limited = lines[0].startswith("CPU ") and 0 < int(lines[0].split()[1]) <= int(TIGHT.cpu_s) + 1
    return limited and not any("PLANTED" in line for line in lines), f"spawned process said {lines!r:.120}"


PATH_ATTACKS = [Attack(f.__name__, f) for f in (session_path, spawn_path, spawn_planted_module)]
