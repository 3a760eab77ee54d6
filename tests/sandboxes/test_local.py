"""The local backend with real processes: files in and out, sessions, toolchains, the weaker fallbacks."""

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from sandboxes.attacks import ATTACKS
from sandboxes.base import Limits
from sandboxes.errors import UserError
from sandboxes import isolation
from sandboxes.isolation import probe
from sandboxes.local import LocalSandbox
from sandboxes.selftest import run_case

from tests.sandboxes.conftest import SMALL, require_guarantee

CPP = b'#include <cstdio>\nint main() { std::printf("%d\\n", 6 * 7); }\n'


def test_files_in_collect_out(local_sandbox):
    result = local_sandbox.run(["sh", "-c", "cat in/a.txt > out.txt; mkdir -p res; echo r > res/r.log"],
                               files={"in/a.txt": b"hello"}, collect=["out.txt", "res/*.log"], limits=SMALL)
    assert result.ok and result.backend == "local"
    assert result.files == {"out.txt": b"hello", "res/r.log": b"r\n"}


def test_gxx_compile_and_run(local_sandbox):
    result = local_sandbox.run(["sh", "-c", "g++ -O1 -o main main.cc && ./main"], files={"main.cc": CPP},
                               limits=SMALL)
    assert result.ok, result.stderr
    assert result.stdout == "42\n"


def test_torch_imports_under_default_limits(local_sandbox):
    result = local_sandbox.run(["python", "-c", "import torch; print(torch.arange(4).sum().item())"])
    assert result.ok, result.stderr[-500:]
    assert result.stdout.strip() == "6"
    assert result.peak_memory_mb > 50


def test_session_keeps_files_between_commands(local_sandbox):
    with local_sandbox.open(SMALL) as session:
        session.exec(["sh", "-c", "echo 1 > state"])
        second = session.exec(["cat", "state"], files={"extra.txt": b"e"}, collect=["*"])
    assert second.stdout == "1\n"
    assert second.files == {"state": b"1\n", "extra.txt": b"e"}


def test_each_run_gets_a_fresh_work_dir(local_sandbox):
    local_sandbox.run(["sh", "-c", "echo x > left_over"], limits=SMALL)
    result = local_sandbox.run(["ls", "-A"], limits=SMALL)
    assert result.stdout == ""


def test_protections_are_reported(local_sandbox):
    protections = local_sandbox.protections
    assert protections["isolation"] == probe().mode
    assert protections["environment"] == "allow-list"


@pytest.mark.parametrize("mode", ["unshare", "none"])
def test_fallback_modes_still_run_and_limit(mode):
    caps = probe()
    if mode == "unshare" and not caps.unshare:
        pytest.skip("unshare cannot create namespaces here")
    sandbox = LocalSandbox()
    sandbox.caps = dataclasses.replace(caps, bwrap=False, unshare=mode == "unshare")
    ok = sandbox.run(["python", "-c", "open('o', 'w').write('1')"], collect=["o"], limits=SMALL)
    assert ok.ok and ok.files == {"o": b"1"}
    slow = sandbox.run(["sleep", "30"], limits=Limits(wall_s=0.5))
    assert slow.timed_out
    claims = sandbox.protections
    assert claims["network_off"] is (mode == "unshare" or caps.private_mounts)
    for attack in ATTACKS:
        claim = {"network": claims["network_off"], "write_outside": claims["read_only_host"] == "mount",
                 "host_files": claims["read_only_host"] == "mount", "disk_fill": claims["private_tmp"],
                 "dev_scratch": claims["private_tmp"], "detached_daemon": caps.cgroups,
                 "ipc_left": claims["ipc_namespace"], "seccomp_calls": claims["seccomp"] != "none"}
        if attack.name in claim:
            row = run_case(sandbox, attack)
            claimed = claim[attack.name]
            assert row["contained"] or not claimed, row["detail"]
    sandbox.close()


def test_concurrent_runs_from_threads(local_sandbox):
    from concurrent.futures import ThreadPoolExecutor

    # the uid as this host sees it (unshare without --map-current-user shows root inside its namespace)
    code = "import os; print(os.getuid() or open('/proc/self/uid_map').read().split()[1])"
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: local_sandbox.run(["python", "-c", code], limits=SMALL), range(8)))
    assert all(r.ok for r in results), [r.stderr for r in results if not r.ok]
    require_guarantee(local_sandbox, "fresh_uid")
    assert len({r.stdout for r in results}) > 1 and "0\n" not in {r.stdout for r in results}


def test_root_without_private_mounts_keeps_the_toolchain_reachable():
    caps = probe()
    if not caps.root:
        pytest.skip("only root drops privileges")
    sandbox = LocalSandbox()
    sandbox.caps = dataclasses.replace(caps, private_mounts=False)
    result = sandbox.run(["python", "-c", "print('reachable')"], limits=SMALL)
    assert result.stdout == "reachable\n", result.stderr
    sandbox.close()


EXHAUSTED = """
import os, resource, sys
sys.path.insert(0, {root!r})
from sandboxes.base import Limits
from sandboxes.local import LocalSandbox
box = LocalSandbox()
resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
held = []
try:
    while True:
        held.append(os.open("/dev/null", os.O_RDONLY))
except OSError:
    pass
for fd in held[-3:]:
    os.close(fd)
result = box.run(["true"], limits=Limits(wall_s=30))
print(result.returncode, result.sandbox_error)
"""


def test_a_host_out_of_files_is_a_sandbox_failure_not_a_crash():
    """A red-team job filled the host's open-file table; the next local job raised OSError from the sandbox API."""
    root = str(Path(__file__).resolve().parents[2])
    done = subprocess.run([sys.executable, "-c", EXHAUSTED.format(root=root)], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "125 the host could not start the job: [Errno 24] Too many open files", done.stderr


def test_a_folder_the_job_left_where_a_file_goes_is_a_clear_error_and_the_session_goes_on(local_sandbox):
    with local_sandbox.open(SMALL) as session:
        session.exec(["sh", "-c", "rm -f step.py; mkdir step.py"], files={"step.py": b"1"})
        with pytest.raises(UserError, match="cannot write sandbox file 'step.py': a folder of that name"):
            session.exec(["true"], files={"step.py": b"2"})
        assert session.exec(["sh", "-c", "rmdir step.py && echo ok"]).stdout == "ok\n"



def test_a_wrapper_that_could_not_set_the_job_up_is_a_sandbox_failure(local_sandbox, monkeypatch):
    """With the user's process count at its limit, bubblewrap failed to create a namespace and the job came back as
    its own exit status 1 (it never ran)."""
    if not local_sandbox.caps.bwrap:
        pytest.skip("bubblewrap is not used on this host")
    prefix = isolation.bwrap_prefix
    monkeypatch.setattr(isolation, "bwrap_prefix", lambda *args, **kwargs: [
        *prefix(*args, **kwargs)[:1], "--ro-bind", "/nonexistent-agentkiln-source", "/x", *prefix(*args, **kwargs)[1:]])
    result = local_sandbox.run(["echo", "ran"], limits=SMALL)
    assert result.sandbox_error.startswith("the sandbox could not start the job: bwrap: "), result
    assert result.stdout == ""
