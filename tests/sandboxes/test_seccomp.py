"""The jobs' seccomp filter: built by hand, applied by both backends (run and spawn), blocking only what it lists."""

import errno
import json
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from sandboxes import seccomp

from tests.sandboxes.conftest import SMALL

CHECK = """
import ctypes, errno, json, os, platform, subprocess, sys, threading
sys.path.insert(0, {root!r})
from sandboxes import seccomp
numbers = seccomp.NUMBERS[platform.machine()]
seccomp.install()
libc = ctypes.CDLL(None, use_errno=True)
seen = {{}}
for name, args in (("io_uring_setup", (1, 0)), ("keyctl", (0, -3, 0)), ("add_key", (b"user", b"k", b"v", 1, -3)),
                   ("unshare", (0x10000000,)), ("clone", (0x10000000 | 17, 0, 0, 0, 0)), ("clone3", (0, 0)),
                   ("fsetxattr", (1, b"user.k", b"v", 1, 0)), ("setxattr", (b"/tmp", b"user.k", b"v", 1, 0)),
                   ("io_setup", (1, ctypes.byref(ctypes.c_ulong(0)))), ("socket", (40, 1, 0)),
                   ("socketpair", (40, 1, 0, ctypes.byref((ctypes.c_int * 2)())))):
    ctypes.set_errno(0)
    result = libc.syscall(numbers[name], *args)
    seen[name] = errno.errorcode.get(ctypes.get_errno(), str(result)) if result == -1 else "allowed"
thread = threading.Thread(target=lambda: None)
thread.start()
thread.join()
seen["child"] = subprocess.run(["sh", "-c", "echo ran"], capture_output=True, text=True).stdout.strip()
import socket
for family in (socket.AF_UNIX, socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK):
    socket.socket(family, socket.SOCK_DGRAM).close()
socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP).close()
socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()  # NETLINK_ROUTE
left, right = socket.socketpair()
seen["socketpair_unix"] = "allowed"
for name, family, kind, protocol in (("sctp", socket.AF_INET, socket.SOCK_STREAM, 132),
                                     ("dccp", socket.AF_INET6, 6, 33), ("netlink_uevent", socket.AF_NETLINK,
                                                                         socket.SOCK_RAW, 15)):
    try:
        socket.socket(family, kind, protocol).close()
        seen[name] = "allowed"
    except OSError as error:
        seen[name] = errno.errorcode[error.errno]
six = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
six.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    six.setsockopt(socket.IPPROTO_IPV6, 32, bytes(32))  # IPV6_FLOWLABEL_MGR: a label outlives the socket
    seen["flowlabel"] = "allowed"
except OSError as error:
    seen["flowlabel"] = errno.errorcode[error.errno]
import fcntl, struct, tempfile
with tempfile.TemporaryFile() as handle:
    try:
        fcntl.ioctl(handle.fileno(), 0x40086602, struct.pack("l", 0x40))  # FS_IOC_SETFLAGS: chattr +d
        seen["chattr"] = "allowed"
    except OSError as error:
        seen["chattr"] = errno.errorcode[error.errno]
read_end, write_end = os.pipe()
fcntl.ioctl(read_end, 0x541B, bytes(4))  # FIONREAD: other ioctls still pass
print(json.dumps(seen))
"""

PROBE = """
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
for number, args in (({io_uring}, (1, 0)), ({keyctl}, (0, -3, 0))):
    ctypes.set_errno(0)
    result = libc.syscall(number, *args)
    print("EPERM" if result == -1 and ctypes.get_errno() == errno.EPERM else f"open({{ctypes.get_errno()}})")
"""


def _probe() -> str:
    if not seccomp.available():
        pytest.skip("no system call table for this architecture")
    numbers = seccomp.NUMBERS[platform.machine()]
    return PROBE.format(io_uring=numbers["io_uring_setup"], keyctl=numbers["keyctl"])


def test_the_filter_blocks_its_calls_and_leaves_the_rest():
    if not seccomp.available():
        pytest.skip("no system call table for this architecture")
    root = str(Path(seccomp.__file__).parents[1])
    proc = subprocess.run([sys.executable, "-c", CHECK.format(root=root)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout)
    assert {name: seen[name] for name in ("io_uring_setup", "keyctl", "add_key", "unshare", "clone")} == \
        dict.fromkeys(("io_uring_setup", "keyctl", "add_key", "unshare", "clone"), "EPERM")
    assert seen["clone3"] == seen["io_setup"] == "ENOSYS" and seen["child"] == "ran"
    assert seen["fsetxattr"] == seen["setxattr"] == seen["chattr"] == errno.errorcode[errno.EOPNOTSUPP]
    assert seen["socket"] == seen["socketpair"] == errno.errorcode[errno.EAFNOSUPPORT]  # vsock: in no namespace
    assert seen["socketpair_unix"] == "allowed"  # Unix, IP and netlink sockets still open
    assert seen["sctp"] == seen["dccp"] == seen["netlink_uevent"] == "EPROTONOSUPPORT"  # no module loads
    assert seen["flowlabel"] == "EPERM"  # other socket options still set (SO_REUSEADDR above)


@pytest.mark.parametrize("machine", sorted(seccomp.NUMBERS))
def test_a_program_is_built_for_every_known_architecture(machine):
    program = seccomp.program(machine)
    assert len(program) % 8 == 0 and 0 < len(program) // 8 < 4096
    assert {*seccomp.BLOCKED, *seccomp.UNSUPPORTED, "socket", "socketpair"} <= set(seccomp.NUMBERS[machine])


def test_run_blocks_io_uring_and_the_keyrings(any_sandbox):
    result = any_sandbox.run(["python", "-c", _probe()], limits=SMALL)
    assert result.stdout.split() == ["EPERM", "EPERM"], result.stdout + result.stderr


def test_a_spawned_process_is_filtered_too(any_sandbox):
    with any_sandbox.spawn(["python", "-u", "-c", _probe()], limits=SMALL) as process:
        lines = [process.read_line(60).decode() for _ in range(2)]
    assert lines == ["EPERM", "EPERM"], process.stderr_tail()
