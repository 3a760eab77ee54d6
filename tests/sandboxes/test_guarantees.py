"""The local backend's guarantees: named with a reason when lacking, and kept for real when claimed."""

import dataclasses
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from sandboxes import guarantees, hostfs
from sandboxes.isolation import HostCaps, probe
from sandboxes.local import LocalSandbox
from tests.sandboxes.conftest import SMALL, require_guarantee
from tests.system_tools import require_tool

FULL = HostCaps(bwrap=True, unshare=True, root=True, cgroups=True, private_mounts=True)


def test_every_lacking_guarantee_has_a_reason_and_safety_ones_become_warnings():
    assert guarantees.lacking(FULL) == {}
    assert all(guarantees.kept(FULL).values()) and set(guarantees.kept(FULL)) == set(guarantees.GUARANTEES)
    user = dataclasses.replace(FULL, root=False, cgroups=False)
    missing = guarantees.lacking(user)
    assert set(missing) == {"fresh_uid", "oom_kills_counted"}
    assert "not root: concurrent runs share uid" in missing["fresh_uid"]
    assert "out-of-memory kill is not detected" in missing["oom_kills_counted"]
    assert guarantees.safety_warnings(user) == [f"local sandbox: {missing['fresh_uid']}"]
    fallback = guarantees.lacking(dataclasses.replace(FULL, bwrap=False))
    assert list(fallback) == ["kill_exit_status"] and "util-linux's unshare exits 1" in fallback["kill_exit_status"]
    bare = dataclasses.replace(user, bwrap=False, unshare=False, private_mounts=False)
    assert "apt-get install bubblewrap" in guarantees.lacking(bare)["network_off"]
    assert len(guarantees.safety_warnings(bare)) == 3
    unshare_only = dataclasses.replace(user, bwrap=False, private_mounts=False)
    hidden = guarantees.lacking(unshare_only)["host_hidden"]  # no view without bwrap or root: it says so
    assert "may write, every file uid" in hidden
    assert f"local sandbox: {hidden}" in guarantees.safety_warnings(unshare_only)


def test_claims_match_the_protections_report():
    sandbox = LocalSandbox()
    claims, kept = sandbox.protections, sandbox.guarantees
    assert kept["fresh_uid"] is (claims["user"] == "a fresh unprivileged uid per run")
    assert kept["oom_kills_counted"] is claims["memory_limit"].startswith("cgroup")
    assert kept["network_off"] is claims["network_off"]
    sandbox.close()


@pytest.fixture
def venv_under_tmp():
    folder = tempfile.mkdtemp(prefix="agentkiln-venv-", dir="/tmp")
    os.chmod(folder, 0o755)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", folder], check=True)
    yield folder
    subprocess.run(["rm", "-rf", folder], check=True)


@pytest.mark.parametrize("wrapper", ["unshare", "bwrap"])
def test_a_python_installation_under_tmp_runs_in_the_sandbox(venv_under_tmp, monkeypatch, wrapper):
    """The fresh-machine failure: the unshare fallback's private /tmp hid a venv that lives under /tmp."""
    caps = probe()
    if wrapper == "unshare" and not (caps.root and caps.private_mounts):
        pytest.skip("only root builds the fallback's own private /tmp (elsewhere the host's /tmp stays visible)")
    if wrapper == "bwrap":
        require_tool("bwrap")
    shown = hostfs.python_dirs()
    monkeypatch.setattr(hostfs, "python_dirs", lambda: sorted({*shown, venv_under_tmp}))
    sandbox = LocalSandbox()
    sandbox.caps = dataclasses.replace(caps, bwrap=wrapper == "bwrap")
    python = str(Path(venv_under_tmp) / "bin" / "python")
    result = sandbox.run([python, "-c", "import sys, pydantic; print(sys.prefix)"], limits=SMALL)
    sandbox.close()
    assert result.stdout.strip() == venv_under_tmp, result.stderr


def test_the_trusted_runner_module_imports_inside(local_sandbox, tmp_path):
    from benchmarks.kernels.verifier.runner.launch import EvalConfig, runner_environment
    from sandboxes.targets.npu.target import NpuTarget

    require_guarantee(local_sandbox, "runner_importable")
    (tmp_path / "cache").mkdir()
    env, limits = runner_environment(NpuTarget().runner_settings(), tmp_path / "cache", EvalConfig())
    small = limits.model_copy(update={"wall_s": 60, "memory_mb": 1024, "disk_mb": 32})
    result = local_sandbox.run([sys.executable, "-c", "import benchmarks.kernels.verifier.runner.trusted as t; "
                                "print(t.__file__)"], env=env, limits=small)
    assert result.ok and result.stdout.startswith(env["PYTHONPATH"]), result.stderr
