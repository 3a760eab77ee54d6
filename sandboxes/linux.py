"""Thin ctypes wrappers for the Linux calls the standard library lacks (mount, unshare, prctl)."""

from __future__ import annotations

import ctypes
import errno
import functools
import os
import platform
import socket

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWNET = 0x40000000
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
MS_REMOUNT = 0x20
MNT_DETACH = 0x2
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_SET_CHILD_SUBREAPER = 36
PR_SET_PTRACER, PR_SET_PTRACER_ANY = 0x59616D61, (1 << 64) - 1
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC = 1, 1
SYS_SECCOMP = {"x86_64": 317, "aarch64": 277}
SYS_MOUNT_SETATTR = 442  # the same number on x86_64 and arm64
AT_FDCWD = -100
AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 0x1
MOUNT_ATTR_NOSUID = 0x2
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}.get(os.uname().machine)

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
_libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
_libc.unshare.argtypes = [ctypes.c_int]
_libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
_libc.syscall.restype = ctypes.c_long


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64), ("propagation", ctypes.c_uint64),
                ("userns_fd", ctypes.c_uint64)]


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _b(value: str | None) -> bytes | None:
    return None if value is None else os.fsencode(value)


def mount(source: str | None, target: str, fstype: str | None = None, flags: int = 0,
          data: str | None = None) -> None:
    """mount(2)."""
    _check(_libc.mount(_b(source), _b(target), _b(fstype), flags, _b(data)), f"mount {target}")


def umount(target: str, flags: int = MNT_DETACH) -> None:
    """umount2(2), lazily detaching by default."""
    _check(_libc.umount2(_b(target), flags), f"umount {target}")


def unshare(flags: int) -> None:
    """unshare(2)."""
    _check(_libc.unshare(flags), "unshare")


def set_parent_death_signal(signum: int) -> None:
    """Ask the kernel to send ``signum`` to this process when its parent dies."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0), "prctl")


def set_dumpable(dumpable: bool) -> None:
    """Clear (or set) this process's dumpable flag: when clear, other processes of the same unprivileged
    user can neither ptrace it nor open its /proc/<pid>/{mem,fd,environ}."""
    _check(_libc.prctl(PR_SET_DUMPABLE, int(dumpable), 0, 0, 0), "prctl")


def allow_any_tracer() -> None:
    """Let any process of the same user that may otherwise ptrace this one do so under Yama's ``ptrace_scope`` 1
    (where only ancestors may): the persistent verifier's runner is not its worker's parent. Without Yama, nothing
    to do."""
    if _libc.prctl(PR_SET_PTRACER, ctypes.c_ulong(PR_SET_PTRACER_ANY).value, 0, 0, 0) != 0 and \
            ctypes.get_errno() != errno.EINVAL:  # EINVAL: no Yama in this kernel
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PTRACER)")


def set_child_subreaper(enabled: bool = True) -> None:
    """Make this process adopt every orphaned descendant (so it can wait for and account for them)."""
    _check(_libc.prctl(PR_SET_CHILD_SUBREAPER, int(enabled), 0, 0, 0), "prctl")


def set_no_new_privs() -> None:
    """Forbid this process and its descendants to gain privileges through exec (needed for a seccomp filter)."""
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl")


def set_seccomp_filter(program: bytes, every_thread: bool = False) -> None:
    """Apply a classic-BPF seccomp filter (raw ``struct sock_filter`` instructions) to the calling thread and what it
    starts later; ``every_thread``: to the process's other threads too (``SECCOMP_FILTER_FLAG_TSYNC``)."""
    code = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.addressof(code))
    if not every_thread:
        _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0),
               "prctl(PR_SET_SECCOMP)")
        return
    number = SYS_SECCOMP[platform.machine()]
    failed = _libc.syscall(ctypes.c_long(number), ctypes.c_long(SECCOMP_SET_MODE_FILTER),
                           ctypes.c_long(SECCOMP_FILTER_FLAG_TSYNC), ctypes.c_void_p(ctypes.addressof(fprog)))
    if failed > 0:  # the id of a thread that could not take it
        raise OSError(0, f"seccomp(TSYNC): thread {failed} could not take the filter")
    _check(failed, "seccomp(TSYNC)")


def read_process_memory(pid: int, address: int, size: int) -> bytearray:
    """``size`` bytes at ``address`` in process ``pid``, through ``/proc/<pid>/mem`` (the caller may ptrace it: its
    parent, where it is dumpable; Docker's default seccomp profile refuses ``process_vm_readv`` but not this). Pages
    the process protected are read as they are, with no fault in it. OSError when they cannot all be read."""
    into = bytearray(size)
    view = memoryview(into)
    fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY | os.O_CLOEXEC)
    try:
        done = 0
        while done < size:
            got = os.preadv(fd, [view[done:]], address + done)
            if got <= 0:
                raise OSError(errno.EIO, f"/proc/{pid}/mem: read {done} of {size} bytes")
            done += got
    finally:
        os.close(fd)
    return into


@functools.cache
def may_read_child_memory() -> bool:
    """Whether this process may read the memory of a child that lets it (dumpable, any tracer allowed): a probe child
    of its own, so that what a later child does to itself cannot decide the answer."""
    marker = bytearray(b"agentkiln probe")
    address = ctypes.addressof((ctypes.c_char * len(marker)).from_buffer(marker))
    ready_read, ready_write = os.pipe()
    hold_read, hold_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(hold_write)  # the parent's closing it is the end of the probe
            set_dumpable(True)
            allow_any_tracer()
        finally:
            os.write(ready_write, b"x")
            os.read(hold_read, 1)
            os._exit(0)
    try:
        os.read(ready_read, 1)
        return read_process_memory(pid, address, len(marker)) == marker
    except OSError:
        return False
    finally:
        for fd in (ready_read, ready_write, hold_read, hold_write):
            os.close(fd)
        os.waitpid(pid, 0)


def mount_tmpfs(target: str, size_mb: int, uid: int, gid: int) -> None:
    """Mount a size-capped tmpfs owned by ``uid:gid`` on ``target``."""
    data = f"size={size_mb}m,mode=0755,uid={uid},gid={gid}"
    mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, data)


def set_mount_attrs(path: str, read_only: bool, recursive: bool) -> None:
    """mount_setattr(2) (Linux 5.12+) on the mount(s) at ``path``: make them read-only and ``nosuid``, or clear
    only their read-only flag."""
    attr = _MountAttr(MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0, 0, 0) if read_only else \
        _MountAttr(0, MOUNT_ATTR_RDONLY, 0, 0)
    flags = AT_RECURSIVE if recursive else 0
    result = _libc.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, _b(path), flags, ctypes.byref(attr), ctypes.sizeof(attr))
    _check(int(result), f"mount_setattr {path}")


def pivot_root(new_root: str, put_old: str) -> None:
    """pivot_root(2) (x86_64 and arm64)."""
    if SYS_PIVOT_ROOT is None:
        raise OSError(f"pivot_root: no system call number known for {os.uname().machine}")
    _check(int(_libc.syscall(SYS_PIVOT_ROOT, _b(new_root), _b(put_old))), f"pivot_root {new_root}")


def limit_job(cpu_s: float, disk_mb: int) -> None:
    """The calling process's limits as a sandbox job: CPU seconds (SIGXCPU, then SIGKILL a second later), the size
    of any file it writes, no core dumps, no real-time scheduling and no raised priority (a host started with a
    raised RLIMIT_RTPRIO would let a job run SCHED_FIFO, past its CPU quota), and the OOM killer's first choice
    (never the process that supervises it)."""
    import resource

    cpu = int(cpu_s) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (disk_mb << 20, disk_mb << 20))
    for fixed in (resource.RLIMIT_CORE, resource.RLIMIT_RTPRIO, resource.RLIMIT_NICE):
        resource.setrlimit(fixed, (0, 0))
    with open("/proc/self/oom_score_adj", "w") as handle:
        handle.write("1000")


def release_unix_socket() -> None:
    """Create and close a pair of Unix sockets. Releasing one runs the kernel's collector of Unix sockets in flight:
    sockets a job sent into its own queue (an SCM_RIGHTS cycle) outlive every process of it, keeping their names
    and the memory of files sent along (600 MiB of memfds), until some Unix socket on the host is released."""
    first, second = socket.socketpair(socket.AF_UNIX)
    first.close()
    second.close()
