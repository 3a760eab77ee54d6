"""The adversarial cases of the sandbox selftest: each tries to escape or exhaust, then checks the host.

A case returns ``(contained, detail)``; the selftest then looks for processes it left behind (by process
tree, see :mod:`sandboxes.survivors`) and runs a plain next job. This module holds the resource and
isolation cases; :mod:`sandboxes.attacks_host` the host's files and devices; :mod:`sandboxes.attacks_runner` the
ones against the supervisor and its answers, :mod:`sandboxes.attacks_leftovers` what one job leaves to the next,
:mod:`sandboxes.attacks_paths` the ``session`` and ``spawn`` paths.
"""

from __future__ import annotations

import os
import socket
import tempfile

from sandboxes.attack_kit import TIGHT, Attack, flags, python_job
from sandboxes.attacks_host import HOST_ATTACKS
from sandboxes.attacks_leftovers import LEFTOVER_ATTACKS
from sandboxes.attacks_paths import PATH_ATTACKS
from sandboxes.attacks_runner import RUNNER_ATTACKS
from sandboxes.base import Sandbox


def fork_bomb(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    result = python_job(sandbox, """
        import os
        while True:
            try:
                os.fork()
            except OSError:
                pass
        """, marker)
    return result.timed_out or result.cpu_exceeded, flags(result)


def memory_bomb(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    limits = TIGHT.model_copy(update={"memory_mb": 128})
    result = python_job(sandbox, """
        chunks = []
        while True:
            chunks.append(bytearray(8 * 2**20))
        """, marker, limits)
    return result.oom_killed and result.returncode != 0, flags(result)


def cpu_loop(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    limits = TIGHT.model_copy(update={"cpu_s": 1.0, "wall_s": 30.0})
    result = python_job(sandbox, "while True:\n    pass", marker, limits)
    return result.cpu_exceeded and not result.timed_out and result.cpu_s < 3.0, flags(result)


def sleep_past_wall(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    limits = TIGHT.model_copy(update={"wall_s": 1.5})
    result = python_job(sandbox, "import time\ntime.sleep(120)", marker, limits)
    return result.timed_out and result.wall_s < 5.0, flags(result)


def endless_stdout(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    limits = TIGHT.model_copy(update={"wall_s": 2.0})
    result = python_job(sandbox, "while True:\n    print('y' * 4096)", marker, limits)
    kept = len(result.stdout.encode())
    return result.stdout_truncated and kept <= limits.output_bytes, f"{flags(result)} kept={kept}B"


def disk_fill(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    host_tmp_file = f"/tmp/{marker}.bin"
    result = python_job(sandbox, f"""
        import os
        block = b"0" * 2**20
        for target in ("fill.bin", {host_tmp_file!r}):
            written = 0
            try:
                with open(target, "wb") as handle:
                    while True:
                        handle.write(block)
                        written += 1
            except OSError as error:
                print(target, written, "MiB then", type(error).__name__, error.errno)
        """, marker)
    stopped = result.stdout.count("MiB then") == 2
    on_host = os.path.exists(host_tmp_file)
    if on_host:
        os.unlink(host_tmp_file)
    detail = f"{flags(result)} {result.stdout.strip()!r}" + ("; the /tmp file reached the host" if on_host else "")
    return stopped and not on_host and result.returncode == 0, detail


def write_outside(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    caller_dir = os.getcwd()
    targets = [f"/{marker}", f"/etc/{marker}", os.path.join(caller_dir, marker)]
    code = "import sys\nfor path in sys.argv[1:]:\n    try:\n        open(path, 'w').write('x')\n" \
           "        print('WROTE', path)\n    except OSError as error:\n        print('refused', path, error.errno)"
    result = sandbox.run(["python", "-c", code + f"\n# {marker}", *targets], limits=TIGHT)
    leaked = [t for t in targets if os.path.exists(t)]
    for path in leaked:
        os.unlink(path)
    return not leaked, f"host files created: {leaked or 'none'}; inside: {result.stdout.split()!r:.160}"


def symlink_readback(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".secret", delete=False) as secret:
        secret.write(f"host-secret-{marker}")
    code = f"""
        import os
        os.symlink({secret.name!r}, "result.txt")
        os.symlink(os.path.dirname({secret.name!r}), "hostdir")
        """
    try:
        result = python_job(sandbox, code, marker, collect=["result.txt", "hostdir/**", "**/*.secret"])
    finally:
        os.unlink(secret.name)
    leaked = [name for name, data in result.files.items() if marker.encode() in data]
    return not leaked, f"collected {sorted(result.files) or 'nothing'}; notes: {len(result.notes)}"


def environment_secrets(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    secret = f"sk-selftest-{marker}"
    os.environ["AGENTKILN_SELFTEST_API_KEY"] = secret
    try:
        result = python_job(sandbox, """
            import glob, os
            print(dict(os.environ))
            for path in glob.glob("/proc/*/environ"):
                try:
                    print(path, open(path, "rb").read())
                except OSError:
                    pass
            """, marker)
    finally:
        del os.environ["AGENTKILN_SELFTEST_API_KEY"]
    leaked = secret in result.stdout or secret in result.stderr
    return not leaked and result.returncode == 0, f"secret seen: {leaked}; {result.stdout.count('environ')} environ files read"


def network(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    listener = socket.socket()
    listener.bind(("0.0.0.0", 0))
    listener.listen(8)
    port, host_ip = listener.getsockname()[1], _primary_ip()
    try:
        result = python_job(sandbox, f"""
            import socket
            for host, port in (({host_ip!r}, {port}), ("127.0.0.1", {port}), ("1.1.1.1", 53)):
                try:
                    socket.create_connection((host, port), timeout=2).close()
                    print("CONNECTED", host)
                except OSError as error:
                    print("refused", host, error.errno)
            try:
                print("RESOLVED", socket.getaddrinfo("pypi.org", 443)[0][4])
            except OSError as error:
                print("no-dns", error)
            """, marker)
        accepted = _pending_connections(listener)
    finally:
        listener.close()
    opened = "CONNECTED" in result.stdout or "RESOLVED" in result.stdout or accepted
    return not opened, f"host listener got {accepted} connections; inside: {result.stdout.strip()!r:.200}"


def _primary_ip() -> str:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def _pending_connections(listener: socket.socket) -> int:
    """Connections that completed their handshake while the sandbox ran (they wait in the backlog)."""
    listener.setblocking(False)
    count = 0
    while True:
        try:
            listener.accept()[0].close()
            count += 1
        except BlockingIOError:
            return count


def detached_daemon(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """A daemon that leaves the session and renames itself (no marker left in its command line)."""
    result = python_job(sandbox, """
        import os
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv("/bin/sleep", ["sleep", "300"])
            os._exit(0)
        print("parent exits, daemon", "left")
        """, marker)
    return "daemon" in result.stdout, flags(result)


def sigterm_ignorer(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    limits = TIGHT.model_copy(update={"wall_s": 1.5})
    result = python_job(sandbox, """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        time.sleep(120)
        """, marker, limits)
    return result.timed_out, flags(result)


ATTACKS = [Attack(f.__name__, f) for f in (
    fork_bomb, memory_bomb, cpu_loop, sleep_past_wall, endless_stdout, disk_fill, write_outside,
    symlink_readback, environment_secrets, network, detached_daemon, sigterm_ignorer)] + HOST_ATTACKS \
    + RUNNER_ATTACKS + LEFTOVER_ATTACKS + PATH_ATTACKS
