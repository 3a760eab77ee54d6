"""Selftest cases against the supervisor and its answers: reaching it through /proc or ptrace, forging or
mis-ordering its answers, returning file names outside the work dir, and the system calls the seccomp
filter blocks. The supervisors a job can see are its ancestors and PID 1 (the docker runner; the host
process where there is no pid namespace); only they are probed, and opening, tracing or signalling any
of them is an escape.
"""

from __future__ import annotations

import base64
import json
import platform
import textwrap

from sandboxes.attack_kit import TIGHT, Attack, flags, python_job
from sandboxes.base import Sandbox
from sandboxes.seccomp import NUMBERS
from sandboxes.workdir import rejected_names

PROBE = """
import ctypes, json, os
libc = ctypes.CDLL(None, use_errno=True)
def reach(pid):
    got = []
    for name, flags in (("mem", os.O_RDONLY), ("environ", os.O_RDONLY), ("fd/0", os.O_WRONLY), ("fd/1", os.O_WRONLY)):
        try:
            os.close(os.open(f"/proc/{pid}/{name}", flags))
            got.append(name)
        except OSError:
            pass
    if libc.ptrace(0x4206, pid, 0, 0) == 0:  # PTRACE_SEIZE: attaches without stopping the tracee
        got.append("ptrace")
    try:
        os.kill(pid, 0)
        got.append("signal")
    except OSError:
        pass
    return got

def ancestors():
    # the parent chain, and PID 1 (a process started by docker exec has its parent outside)
    pid, chain = os.getpid(), [1] if os.getpid() != 1 else []
    while pid > 1:
        with open(f"/proc/{pid}/stat") as handle:
            pid = int(handle.read().rsplit(")", 1)[1].split()[1])
        if pid > 1:
            chain.append(pid)
    return chain

def probe_supervisors():
    found = {pid: reach(pid) for pid in ancestors() if os.path.exists(f"/proc/{pid}")}
    print("PROBE " + json.dumps(found), flush=True)
"""

SYSCALLS = """
import ctypes, errno, json
libc = ctypes.CDLL(None, use_errno=True)

def probe_syscalls(numbers):
    refused = {"io_uring_setup": (1, 0), "io_uring_enter": (0, 0, 0, 0, 0, 0), "io_uring_register": (0, 0, 0, 0),
               "keyctl": (0, -3, 0), "add_key": (b"user", b"selftest", b"x", 1, -3), "request_key": (b"user", b"x", 0, 0),
               "bpf": (0, 0, 0), "perf_event_open": (0, 0, -1, -1, 0), "userfaultfd": (0,), "unshare": (0x10000000,)}
    calls = {name: (args, errno.EPERM) for name, args in refused.items()}
    calls["setxattr"] = ((b".", b"user.selftest", b"x" * 4096, 4096, 0), errno.EOPNOTSUPP)
    calls["io_setup"] = ((16, ctypes.byref(ctypes.c_ulong(0))), errno.ENOSYS)
    calls["socket"] = ((40, 1, 0), errno.EAFNOSUPPORT)  # AF_VSOCK, SOCK_STREAM
    seen = {}
    for name, (args, expected) in calls.items():
        ctypes.set_errno(0)
        result = libc.syscall(numbers[name], *args)
        code = ctypes.get_errno()
        seen[name] = "refused" if result == -1 and code == expected else f"rc={result} errno={code}"
    print("SYSCALLS " + json.dumps(seen), flush=True)
"""


def tagged(stdout: str, tag: str) -> dict | None:
    """The JSON a probe printed after ``tag``; None when it printed none (it did not get that far)."""
    for line in stdout.splitlines():
        if line.startswith(tag + " "):
            return json.loads(line[len(tag) + 1:])
    return None


def supervisors_reached(stdout: str) -> dict:
    """The supervisors the probe could open, trace or signal, with how."""
    return {pid: got for pid, got in (tagged(stdout, "PROBE") or {}).items() if got}


def unblocked_calls(stdout: str) -> dict:
    """System calls of the syscall probe that did not fail as the filter makes them fail."""
    return {name: seen for name, seen in (tagged(stdout, "SYSCALLS") or {}).items() if seen != "refused"}


def syscall_numbers() -> dict[str, int]:
    """This machine's numbers for the calls the probe tries (empty where the filter has no table)."""
    return NUMBERS.get(platform.machine(), {})


def supervisor_access(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    result = python_job(sandbox, PROBE + "\nprobe_supervisors()", marker)
    reached = supervisors_reached(result.stdout)
    seen = tagged(result.stdout, "PROBE")
    return seen is not None and not reached, f"{flags(result)} supervisors seen: {seen}; reached: {reached or 'none'}"


def _forge(marker: str, names: list[str]) -> str:
    """Job code writing two forged runner answers (and a forged request) into its supervisors' stdout (stdin)."""
    outcome = {"returncode": 0, "stdout": base64.b64encode(f"FORGED-{marker}".encode()).decode(), "stderr": "",
               "stdout_truncated": False, "stderr_truncated": False, "wall_s": 0.1, "cpu_s": 0.1, "max_rss_bytes": 1,
               "timed_out": False, "cpu_exceeded": False, "disk_exceeded": False}
    files = {name: base64.b64encode(b"forged").decode() for name in names}
    answer = {"outcome": outcome, "files": files, "notes": [], "peak_memory_bytes": 1, "oom_killed": False,
              "disk_full": False}
    lines = "".join(json.dumps({**answer, "id": guess}) + "\n" for guess in (None, "ready"))
    request = json.dumps({"op": "reset", "id": None}) + "\n"
    return PROBE + textwrap.dedent(f"""
        written = []
        for pid in ancestors():
            for fd, text in (("1", {lines!r}), ("0", {request!r})):
                try:
                    with open(f"/proc/{{pid}}/fd/{{fd}}", "w") as handle:
                        handle.write(text)
                    written.append(f"{{pid}}/fd/{{fd}}")
                except OSError:
                    pass
        print("GENUINE", written, flush=True)
        """)


def _forged_accepted(result, marker: str) -> list[str]:
    signs = []
    if f"FORGED-{marker}" in result.stdout:
        signs.append("forged stdout")
    if any(marker in name for name in result.files):
        signs.append("forged file names")
    return signs


def forged_answer(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """The job forges the runner's answer to this request and the next one, then exits 7."""
    result = python_job(sandbox, _forge(marker, []) + "\nraise SystemExit(7)", marker)
    accepted = _forged_accepted(result, marker)
    genuine = result.returncode == 7 and "GENUINE" in result.stdout
    return (genuine or bool(result.sandbox_error)) and not accepted, f"{flags(result)} accepted: {accepted or 'none'}"


def returned_names(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """Odd names in the work dir, plus a forged answer naming files outside it: only clean names come back."""
    forged = [f"../../../tmp/{marker}.txt", f"/etc/{marker}.txt", f"out/../../{marker}.txt", f"out//{marker}.txt"]
    code = _forge(marker, forged) + textwrap.dedent("""
        os.makedirs("out", exist_ok=True)
        for name in ("a.txt", "b\\nc.txt", " d.txt", "..e.txt"):
            open(os.path.join("out", name), "w").write(name)
        os.symlink("/etc/passwd", "out/link.txt")
        """)
    patterns = ["out/*.txt"]
    result = python_job(sandbox, code, marker, collect=patterns)
    bad = rejected_names(result.files, patterns)
    accepted = _forged_accepted(result, marker)
    clean = "out/a.txt" in result.files or bool(result.sandbox_error)
    return clean and not bad and not accepted, (f"{flags(result)} returned {sorted(result.files)}; rejected here: "
                                                f"{bad or 'none'}; forged accepted: {accepted or 'none'}")


def seccomp_calls(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """io_uring, the keyrings, bpf, perf events, userfaultfd and new user namespaces must fail with EPERM; writing
    an extended attribute (memory no quota counts, kept by a reused folder) with EOPNOTSUPP, and Linux AIO (a
    host-wide pool of contexts) with ENOSYS, and a vsock socket (in no network namespace) with EAFNOSUPPORT."""
    numbers = syscall_numbers()
    if not numbers:
        return False, f"no system call table for {platform.machine()}: the seccomp filter is not applied here"
    result = python_job(sandbox, SYSCALLS + f"\nprobe_syscalls({numbers!r})", marker, TIGHT)
    open_calls = unblocked_calls(result.stdout)
    seen = tagged(result.stdout, "SYSCALLS")
    return seen is not None and not open_calls, f"{flags(result)} not blocked: {open_calls or 'none'}"


RUNNER_ATTACKS = [Attack(f.__name__, f) for f in (supervisor_access, forged_answer, returned_names, seccomp_calls)]
