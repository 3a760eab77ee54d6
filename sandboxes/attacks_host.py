"""Selftest cases against the host's files and devices: what a job may see beyond the folders it was given, and
the scratch space it may fill beyond its disk cap."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

from sandboxes import hostfs
from sandboxes.attack_kit import TIGHT, Attack, flags, python_job
from sandboxes.base import Sandbox

HOST_DEVICES = ("/dev/kmsg", "/dev/fuse", "/dev/net/tun", "/dev/kvm", "/dev/loop-control", "/dev/mem")
"""Host devices a job has no use for (the kernel log, FUSE, TUN, KVM, loop devices): none may appear inside."""
SCRATCH_TRY_MB = 128
"""How much the case tries to store in /dev/shm; every backend caps it at the run's ``disk_mb`` (32 MiB here)."""


def host_files(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """Read a world-readable host file that no run asked for, the project's ``.git``, host device nodes and the
    command line of a host process."""
    folder = tempfile.mkdtemp(prefix=marker, dir="/var/tmp" if os.path.isdir("/var/tmp") else None)
    os.chmod(folder, 0o755)
    secret = os.path.join(folder, "notes.txt")
    with open(secret, "w") as handle:
        handle.write(f"host-secret-{marker}")
    os.chmod(secret, 0o644)
    git = os.path.join(hostfs.package_root(), ".git")
    devices = [d for d in HOST_DEVICES if os.path.exists(d)]
    host_process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", marker])  # names it
    try:
        result = python_job(sandbox, f"""
            import glob, os
            try:
                print("READ", open({secret!r}).read())
            except OSError as error:
                print("refused secret", error.errno)
            for path in [{git!r}, *{devices!r}]:
                print("SEEN" if os.path.lexists(path) else "absent", path)
            for path in glob.glob("/proc/[0-9]*/cmdline"):
                try:
                    if open(path, "rb").read().endswith(b"{marker[:8]}" + b"{marker[8:]}\\0"):
                        print("SEEN", path)
                except OSError:
                    pass
            """, marker)
    finally:
        host_process.kill()
        host_process.wait()
        shutil.rmtree(folder, ignore_errors=True)
    seen = [line.split()[1] for line in result.stdout.splitlines() if line.startswith("SEEN")]
    read = f"host-secret-{marker}" in result.stdout
    return not read and not seen and result.returncode == 0, \
        f"host file read: {read}; seen: {seen or 'none'}; {flags(result)}"


def dev_scratch(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """Store data in /dev/shm and /dev, which are not the work dir or /tmp, past the run's disk cap."""
    result = python_job(sandbox, f"""
        block = b"0" * 2**20
        written = 0
        try:
            while written < {SCRATCH_TRY_MB}:  # files of 8 MiB: RLIMIT_FSIZE caps each file, not their sum
                with open(f"/dev/shm/{marker}{{written}}", "wb") as handle:
                    for _ in range(8):
                        handle.write(block)
                        handle.flush()
                        written += 1
        except OSError as error:
            print("shm stopped", error.errno)
        print("shm_mib", written)
        try:
            open("/dev/{marker}", "wb").write(block)
            print("WROTE /dev")
        except OSError as error:
            print("dev refused", error.errno)
        """, marker)
    words = result.stdout.split()
    shm_mb = int(words[words.index("shm_mib") + 1]) if "shm_mib" in words else -1
    contained = 0 <= shm_mb <= TIGHT.disk_mb and "WROTE" not in result.stdout and result.returncode == 0
    return contained, f"/dev/shm took {shm_mb} MiB; {result.stdout.strip()!r:.160}; {flags(result)}"


def pty_pool(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """Open pseudo-terminals until none is left: the kernel's pty pool is shared by the host and every sandbox
    (a job could take them all for as long as it ran); a job gets none."""
    result = python_job(sandbox, """
        import os
        masters = 0
        for path in ("/dev/ptmx", "/dev/pts/ptmx"):
            for _ in range(64):
                try:
                    fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
                except OSError:
                    break
                masters += os.isatty(fd)
        print("PTYS", masters)
        """, marker)
    ok = "PTYS 0" in result.stdout
    return ok, f"{flags(result)} {result.stdout.strip()!r:.60}"


HOST_ATTACKS = [Attack(f.__name__, f) for f in (host_files, dev_scratch, pty_pool)]
