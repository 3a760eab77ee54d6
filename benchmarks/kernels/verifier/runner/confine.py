"""Confinement of the solution's worker: it may not signal, trace or re-prioritise any other process.

Before any solution code runs, the solution worker drops every capability, sets no_new_privs and installs
a seccomp filter (kept by its threads and children) under which the kernel kills the whole worker (as by
SIGSYS, which the runner reports as a refusal) at the first of: ptrace, process_vm_readv and
process_vm_writev, process_madvise, kcmp, pidfd_getfd, pidfd_send_signal, tkill and the NUMA page movers;
kill, tgkill and rt_(tg)sigqueueinfo aimed at any process but itself (so not its group, not -1);
scheduler, priority, I/O-priority and rlimit changes of other processes; and signal delivery set up
through F_SETOWN / F_SETOWN_EX, FIOSETOWN or SIOCSPGRP. The runner and the reference worker are not
dumpable, so without capabilities their /proc/<pid>/mem and fds stay closed to it as well.

On a host device (the cpu target, the simulated NPU, Triton's interpreter) the filter also kills the worker when it
starts a process or a timer, or a thread while ``--threads`` is 1. Native code can reach any function of a library
the process has loaded without naming it (an address read from memory plus an offset: ``pthread_create`` from
``qsort``'s), past every check on symbols; a thread left running when a call returns, or a timer's signal handler,
would finish the output in the untimed gap, or slow the reference's timed call beside it. With more threads allowed,
OpenMP's team needs ``clone``; the CPU quota still bounds them.

Why a filter and not a pid namespace or another uid: on this machine a nested user+pid namespace works in
bubblewrap and in the unshare fallback, but Docker's default seccomp profile refuses ``unshare``, and no
backend maps a second uid for the job; a seccomp filter can be installed by an unprivileged process
under all three (checked with a probe in each). The filter knows x86_64 and aarch64 syscall numbers
(from the kernel's uapi headers); elsewhere :func:`confine` reports that it could not apply it.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
from typing import Any

from sandboxes import linux

RET_ALLOW = 0x7FFF0000
RET_KILL = 0x80000000  # SECCOMP_RET_KILL_PROCESS
LD_ABS, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
RET_ENOSYS = 0x00050000 | 38  # SECCOMP_RET_ERRNO | ENOSYS
CLONE_THREAD = 0x00010000
ASYNC = ("alarm", "setitimer", "timer_create")
"""Timers: a signal handler that native code installs runs when its timer fires, after the call has returned
(work done in the untimed gap, with no thread at all)."""
F_SETOWN, F_SETOWN_EX, FIOSETOWN, SIOCSPGRP = 8, 15, 0x8901, 0x8902
PRIO_PROCESS, IOPRIO_WHO_PROCESS = 0, 1

ARCHES = {
    "x86_64": {"audit": 0xC000003E, "x32": True, "nr": {
        "kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
        "pidfd_send_signal": 424, "pidfd_getfd": 438, "ptrace": 101, "process_vm_readv": 310,
        "process_vm_writev": 311, "process_madvise": 440, "kcmp": 312, "migrate_pages": 256, "move_pages": 279,
        "fcntl": 72, "ioctl": 16, "setpriority": 141, "sched_setparam": 142, "sched_setscheduler": 144,
        "sched_setattr": 314, "prlimit64": 302, "ioprio_set": 251, "clone": 56, "fork": 57, "vfork": 58,
        "clone3": 435, "alarm": 37, "setitimer": 38, "timer_create": 222}},
    "aarch64": {"audit": 0xC00000B7, "x32": False, "nr": {
        "kill": 129, "tkill": 130, "tgkill": 131, "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240,
        "pidfd_send_signal": 424, "pidfd_getfd": 438, "ptrace": 117, "process_vm_readv": 270,
        "process_vm_writev": 271, "process_madvise": 440, "kcmp": 272, "migrate_pages": 238, "move_pages": 239,
        "fcntl": 25, "ioctl": 29, "setpriority": 140, "sched_setparam": 118, "sched_setscheduler": 119,
        "sched_setattr": 274, "prlimit64": 261, "ioprio_set": 30, "clone": 220, "clone3": 435,
        "setitimer": 103, "timer_create": 107}},
}
DENIED = ("ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp", "pidfd_getfd",
          "pidfd_send_signal", "tkill", "migrate_pages", "move_pages")
SELF_ONLY = {  # syscall: (argument holding the pid, 0 also means "myself", required value of argument 0)
    "kill": (0, False, None), "tgkill": (0, False, None), "rt_sigqueueinfo": (0, False, None),
    "rt_tgsigqueueinfo": (0, False, None), "prlimit64": (0, True, None), "sched_setparam": (0, True, None),
    "sched_setscheduler": (0, True, None), "sched_setattr": (0, True, None),
    "setpriority": (1, True, PRIO_PROCESS), "ioprio_set": (1, True, IOPRIO_WHO_PROCESS),
}
DENIED_COMMANDS = {"fcntl": (F_SETOWN, F_SETOWN_EX), "ioctl": (FIOSETOWN, SIOCSPGRP)}


def _arg(index: int) -> int:
    """Offset of the low 32 bits of syscall argument ``index`` in struct seccomp_data (little-endian)."""
    return 16 + 8 * index


def program(arch: dict[str, Any], pid: int, threads: bool | None = None) -> list[tuple[int, int, str | int, str | int]]:
    """The filter as (code, k, jump-if-true, jump-if-false); jumps are labels or 0 (fall through). ``threads``: None
    leaves process and thread creation alone; otherwise a new process or a timer (:data:`ASYNC`) kills the worker,
    and so does a new thread unless ``threads`` is True (``clone3`` says ENOSYS, so that the C library falls back to
    ``clone``, whose flags a filter can read)."""
    nr = arch["nr"]
    code: list = [(LD_ABS, 4, 0, 0), (JEQ, arch["audit"], 0, "deny"), (LD_ABS, 0, 0, 0)]
    if arch["x32"]:
        code.append((JGE, 0x40000000, "deny", 0))
    code += [(JEQ, nr[name], "deny", 0) for name in DENIED]
    if threads is not None:
        code += [(JEQ, nr[name], "deny", 0) for name in (*ASYNC, "fork", "vfork") if name in nr]
        code += [(JEQ, nr["clone3"], "clone3", 0), (JEQ, nr["clone"], "clone", 0)]
    code += [(JEQ, nr[name], name, 0) for name in (*SELF_ONLY, *DENIED_COMMANDS)]
    code.append((RET, RET_ALLOW, 0, 0))
    if threads is not None:
        code += ["clone3", (RET, RET_ENOSYS, 0, 0), "clone", (LD_ABS, _arg(0), 0, 0),
                 (JSET, CLONE_THREAD, "allow" if threads else "deny", "deny")]
    for name, (index, zero_ok, which) in SELF_ONLY.items():
        code.append(name)
        if which is not None:
            code += [(LD_ABS, _arg(0), 0, 0), (JEQ, which, 0, "deny")]
        code += [(LD_ABS, _arg(index), 0, 0), (JEQ, pid, "allow", 0)]
        code += [(JEQ, 0, "allow", "deny")] if zero_ok else [(RET, RET_KILL, 0, 0)]
    for name, commands in DENIED_COMMANDS.items():
        code += [name, (LD_ABS, _arg(1), 0, 0)] + [(JEQ, value, "deny", 0) for value in commands]
        code.append((RET, RET_ALLOW, 0, 0))
    return code + ["allow", (RET, RET_ALLOW, 0, 0), "deny", (RET, RET_KILL, 0, 0)]


def assemble(code: list) -> list[tuple[int, int, int, int]]:
    """Resolve labels into forward jump offsets (code, jt, jf, k)."""
    labels, position = {}, 0
    for item in code:
        if isinstance(item, str):
            labels[item] = position
        else:
            position += 1
    out: list[tuple[int, int, int, int]] = []
    for item in code:
        if isinstance(item, str):
            continue
        op, k, jt, jf = item
        here = len(out) + 1
        out.append((op, labels[jt] - here if isinstance(jt, str) else jt,
                    labels[jf] - here if isinstance(jf, str) else jf, k))
    if any(not 0 <= jump < 256 for _op, jt, jf, _k in out for jump in (jt, jf)):
        raise ValueError("seccomp program jump out of range")
    return out


def _drop_capabilities() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()
    if libc.capset(header, data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def confine(threads: bool | None = None) -> dict[str, Any]:
    """Confine this process (see the module docstring); what applied, for the verdict's evidence. The filter covers
    every thread of the process (with OMP_NUM_THREADS above 1, a fork handler starts a thread in the child:
    the solution's worker went unconfined at ``--threads 2``) and every thread and process they start.
    ``threads``: see :func:`program` (None where the device's runtime starts its own threads and compilers)."""
    arch = ARCHES.get(platform.machine())
    _drop_capabilities()
    linux.set_no_new_privs()
    if arch is None:
        return {"capabilities": "dropped", "seccomp": f"not applied: no syscall table for {platform.machine()}"}
    code = assemble(program(arch, os.getpid(), threads))
    every_thread = len(os.listdir("/proc/self/task")) > 1  # a fork handler starts one when OMP_NUM_THREADS > 1
    linux.set_seccomp_filter(b"".join(struct.pack("=HBBI", op, jt, jf, k) for op, jt, jf, k in code), every_thread)
    what = "signalling, tracing or re-prioritising another process"
    if threads is not None:
        what += ", setting a timer, starting a process" + ("" if threads else " or a thread")
    return {"capabilities": "dropped", "seccomp": f"{what} kills the worker"}
