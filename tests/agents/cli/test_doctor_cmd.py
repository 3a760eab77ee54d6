import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
ONLY_DOCTOR_CLI = ("import sys; from agents.cli import app; app.COMMAND_MODULES[:] = ['agents.cli.doctor_cmd']; "
                   "app.main(sys.argv[1:])")
SECRET = "sk-doctor-test-secret-value"


def test_doctor_json_without_docker_says_so_and_never_prints_keys(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock",
           "ANTHROPIC_API_KEY": SECRET, "AGENT_RUNS_DIR": str(tmp_path / "runs")}
    for name in ("OPENAI_API_KEY", "AGENT_EXECUTOR", "RAY_ADDRESS"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-c", ONLY_DOCTOR_CLI, "doctor", "--json", "--no-selftest"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"sandboxes", "toolchains", "models", "executor"}
    assert report["executor"]["default"]["detail"].startswith("local")
    docker = report["sandboxes"]["docker"]
    assert docker["ok"] is False and "not available" in docker["detail"]
    assert report["sandboxes"]["default_backend"]["detail"].startswith("local")
    assert report["sandboxes"]["selftest"]["skipped"] is True
    gpu = report["toolchains"]["gpu"]
    if shutil.which("nvidia-smi") is None:
        assert gpu["ok"] is False and gpu["detail"].startswith("no GPU")
    for name in ("g++", "nvcc", "triton_interpreter", "klayout_python", "klayout_drc", "python"):
        assert isinstance(report["toolchains"][name]["ok"], bool) and report["toolchains"][name]["detail"]
    models = report["models"]
    assert models["providers"]["anthropic"] == {"ok": True, "detail": "ANTHROPIC_API_KEY is set"}
    assert models["providers"]["openai"]["ok"] is False
    assert models["default_model"]["detail"] == "anthropic/claude-haiku-4-5"
    assert models["default_model"]["source"] == "credentials"


def test_the_table_shows_details_as_written():
    import io

    from rich.console import Console

    from agents.cli.doctor_cmd import _table

    console = Console(file=io.StringIO(), width=200)
    console.print(_table("executor", {"ray": {"ok": False, "detail": "not installed (pip install 'agentkiln[ray]')"}}))
    assert "agentkiln[ray]" in console.file.getvalue()
