"""The sandboxes' own seccomp filter: a few dangerous system calls fail with EPERM; standard library only.

Both backends apply it to every job process: bubblewrap loads it from a pipe (``--seccomp FD``), the docker
container's runner installs it in the job's child before exec (on top of Docker's default profile, which
lets io_uring through), and a docker ``spawn`` starts its process through :func:`exec_filtered`.

Blocked: io_uring (a large kernel attack surface that also bypasses other syscall filtering), the kernel
keyrings (shared with the host outside a container), bpf, perf_event_open and userfaultfd (frequent
exploit primitives), creating or entering namespaces (``unshare``, ``setns``, ``clone`` with a namespace
flag; ``clone3`` says ENOSYS so that the C library falls back to ``clone``), mounting, and loading kernels
or modules. Writing extended attributes or inode flags (``chattr``) says EOPNOTSUPP (as on a filesystem without
them: attributes are memory no disk quota counts, and both outlive a job on a folder that is emptied and reused, as
a warm container's /work is),
and Linux AIO says ENOSYS (as on a kernel without it: its contexts come from one host-wide pool, fs.aio-max-nr,
which sixteen calls can take). Sockets may be Unix, IP or netlink ones; any other family says EAFNOSUPPORT
(``AF_VSOCK`` is in no network namespace: with the network off, a job could still bind the host's vsock ports
and reach the hypervisor's services), and an IP or netlink protocol off a short list says EPROTONOSUPPORT (asking
for one makes the kernel load its module, for the whole host). A process of another architecture (32-bit compat, x32) is killed: its call numbers
differ.
"""

from __future__ import annotations

import errno
import os
import platform
import struct

BLOCKED = ("io_uring_setup", "io_uring_enter", "io_uring_register", "keyctl", "add_key", "request_key", "bpf",
           "perf_event_open", "userfaultfd", "unshare", "setns", "mount", "umount2", "pivot_root", "open_tree",
           "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "kexec_load",
           "kexec_file_load", "init_module", "finit_module", "delete_module", "open_by_handle_at")
UNSUPPORTED = {"setxattr": errno.EOPNOTSUPP, "lsetxattr": errno.EOPNOTSUPP, "fsetxattr": errno.EOPNOTSUPP,
               "setxattrat": errno.EOPNOTSUPP, "io_setup": errno.ENOSYS, "io_destroy": errno.ENOSYS,
               "io_submit": errno.ENOSYS, "io_cancel": errno.ENOSYS, "io_getevents": errno.ENOSYS,
               "io_pgetevents": errno.ENOSYS, "clone3": errno.ENOSYS}
"""Calls that fail as if this kernel or filesystem lacked them (``clone3``: the C library falls back to ``clone``)."""
IP_PROTOCOLS = (0, 1, 6, 17, 58)  # the family's default, ICMP, TCP, UDP, ICMPv6
NETLINK_PROTOCOLS = (0, 4, 16)  # NETLINK_ROUTE, NETLINK_SOCK_DIAG, NETLINK_GENERIC
SOCKET_FAMILIES = {1: None, 2: IP_PROTOCOLS, 10: IP_PROTOCOLS, 16: NETLINK_PROTOCOLS}
"""AF_UNIX (any protocol), AF_INET, AF_INET6 and AF_NETLINK (each namespaced with the job) with the protocols listed:
asking for another (SCTP, DCCP, a netlink family nothing registered) makes the kernel load its module, host-wide,
where modules can be loaded."""
SOL_IPV6, IPV6_FLOWLABEL_MGR = 41, 32
"""IPv6 flow labels outlive their socket by up to 150 s and come from one pool for the whole host (4,096): a job
left 3,073, which the next job in a warm container read and which refused every unprivileged process on the host."""
INODE_FLAG_SETTERS = (0x40086602, 0x40046602, 0x401C5820)  # FS_IOC_SETFLAGS, its 32-bit twin, FS_IOC_FSSETXATTR
"""ioctl commands that set an inode's flags (``chattr``): a job owns a warm container's /work and left nodump and
noatime on it, two bits for every later job (and new files inherit them); they say EOPNOTSUPP, as on a filesystem
without them."""
NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
_GENERIC = {"io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428,
            "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "clone3": 435,
            "mount_setattr": 442, "setxattrat": 463}
NUMBERS = {
    "x86_64": {**_GENERIC, "keyctl": 250, "add_key": 248, "request_key": 249, "bpf": 321, "perf_event_open": 298,
               "userfaultfd": 323, "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
               "kexec_load": 246, "kexec_file_load": 320, "init_module": 175, "finit_module": 313,
               "delete_module": 176, "open_by_handle_at": 304, "clone": 56, "setxattr": 188, "lsetxattr": 189,
               "fsetxattr": 190, "io_setup": 206, "io_destroy": 207, "io_getevents": 208, "io_submit": 209,
               "io_cancel": 210, "io_pgetevents": 333, "socket": 41, "socketpair": 53, "setsockopt": 54, "ioctl": 16},
    "aarch64": {**_GENERIC, "keyctl": 219, "add_key": 217, "request_key": 218, "bpf": 280, "perf_event_open": 241,
                "userfaultfd": 282, "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41,
                "kexec_load": 104, "kexec_file_load": 294, "init_module": 105, "finit_module": 273,
                "delete_module": 106, "open_by_handle_at": 265, "clone": 220, "setxattr": 5, "lsetxattr": 6,
                "fsetxattr": 7, "io_setup": 0, "io_destroy": 1, "io_submit": 2, "io_cancel": 3, "io_getevents": 4,
                "io_pgetevents": 292, "socket": 198, "socketpair": 199, "setsockopt": 208, "ioctl": 29},
}
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_BIT = 0x40000000  # x86_64's x32 ABI: same audit arch, numbers with this bit set

LD_ABS_W, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
RET_ALLOW, RET_ERRNO, RET_KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000
OFFSET_NR, OFFSET_ARCH, OFFSET_ARG0 = 0, 4, 16  # struct seccomp_data (the low word of args[0]: little-endian)


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def available(machine: str | None = None) -> bool:
    """Whether the filter can be built for this machine's architecture."""
    return (machine or platform.machine()) in NUMBERS


def program(machine: str | None = None) -> bytes:
    """The filter as raw ``struct sock_filter`` instructions (what bubblewrap's ``--seccomp`` reads)."""
    machine = machine or platform.machine()
    numbers = NUMBERS[machine]
    code = [_insn(LD_ABS_W, OFFSET_ARCH), _insn(JEQ, AUDIT_ARCH[machine], jt=1), _insn(RET, RET_KILL_PROCESS),
            _insn(LD_ABS_W, OFFSET_NR)]
    if machine == "x86_64":
        code += [_insn(JGE, X32_BIT, jf=1), _insn(RET, RET_KILL_PROCESS)]
    for name, error in [*((name, errno.EPERM) for name in BLOCKED), *UNSUPPORTED.items()]:
        code += [_insn(JEQ, numbers[name], jf=1), _insn(RET, RET_ERRNO | error)]
    for name in ("socket", "socketpair"):
        block = _socket_block()
        code += [_insn(JEQ, numbers[name], jf=len(block)), *block]
    flowlabel = [_insn(LD_ABS_W, OFFSET_ARG0 + 8), _insn(JEQ, SOL_IPV6, jf=3), _insn(LD_ABS_W, OFFSET_ARG0 + 16),
                 _insn(JEQ, IPV6_FLOWLABEL_MGR, jf=1), _insn(RET, RET_ERRNO | errno.EPERM), _insn(RET, RET_ALLOW)]
    code += [_insn(JEQ, numbers["setsockopt"], jf=len(flowlabel)), *flowlabel]
    setters = [_insn(JEQ, command, jt=len(INODE_FLAG_SETTERS) - index)
               for index, command in enumerate(INODE_FLAG_SETTERS)]
    flags = [_insn(LD_ABS_W, OFFSET_ARG0 + 8), *setters, _insn(RET, RET_ALLOW), _insn(RET, RET_ERRNO | errno.EOPNOTSUPP)]
    code += [_insn(JEQ, numbers["ioctl"], jf=len(flags)), *flags]
    code += [_insn(JEQ, numbers["clone"], jf=3), _insn(LD_ABS_W, OFFSET_ARG0),
             _insn(JSET, NAMESPACE_FLAGS, jf=1), _insn(RET, RET_ERRNO | errno.EPERM), _insn(RET, RET_ALLOW)]
    return b"".join(code)


def _socket_block() -> list[bytes]:
    """Allow the families and protocols of :data:`SOCKET_FAMILIES` (EAFNOSUPPORT, EPROTONOSUPPORT otherwise)."""
    checks = []
    for protocols in SOCKET_FAMILIES.values():
        if protocols is None:
            checks.append([_insn(RET, RET_ALLOW)])
            continue
        matches = [_insn(JEQ, protocol, jt=len(protocols) - index) for index, protocol in enumerate(protocols)]
        checks.append([_insn(LD_ABS_W, OFFSET_ARG0 + 16), *matches, _insn(RET, RET_ERRNO | errno.EPROTONOSUPPORT),
                       _insn(RET, RET_ALLOW)])
    count, dispatch, start = len(checks), [], 0
    for index, family in enumerate(SOCKET_FAMILIES):
        dispatch.append(_insn(JEQ, family, jt=count - index + start))
        start += len(checks[index])
    refuse = _insn(RET, RET_ERRNO | errno.EAFNOSUPPORT)
    return [_insn(LD_ABS_W, OFFSET_ARG0), *dispatch, refuse, *(insn for check in checks for insn in check)]


def program_fd() -> int:
    """A pipe's read end holding :func:`program` (for ``bwrap --seccomp FD``); the caller closes it."""
    data = program()
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, data)  # a few hundred bytes: far below a pipe's buffer
    finally:
        os.close(write_end)
    return read_end


def install() -> None:
    """Apply the filter to this process (and everything it starts); it cannot be removed again."""
    from sandboxes import linux

    linux.set_no_new_privs()
    linux.set_seccomp_filter(program())


def exec_filtered(argv: list[str]) -> None:
    """Install the filter, then replace this process with ``argv`` (looked up on PATH)."""
    install()
    os.execvp(argv[0], argv)
