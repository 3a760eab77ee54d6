"""`agent doctor`: what this machine can do — sandboxes, toolchains and model providers (keys never shown)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

Check = dict[str, Any]

# Provider → the environment variables that hold its credentials (any one is enough).
PROVIDER_ENV = {
    "openai": ("OPENAI_API_KEY",), "anthropic": ("ANTHROPIC_API_KEY",), "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "mistral": ("MISTRAL_API_KEY",), "groq": ("GROQ_API_KEY",), "deepseek": ("DEEPSEEK_API_KEY",),
    "openrouter": ("OPENROUTER_API_KEY",), "together_ai": ("TOGETHERAI_API_KEY", "TOGETHER_API_KEY"),
    "azure": ("AZURE_API_KEY",), "ollama": ("OLLAMA_API_BASE",), "hosted_vllm": ("HOSTED_VLLM_API_BASE",),
}

TRITON_PROBE = '''
import os
os.environ["TRITON_INTERPRET"] = "1"
import torch, triton, triton.language as tl

@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out + offsets, tl.load(x + offsets, mask=mask) + tl.load(y + offsets, mask=mask), mask=mask)

x = torch.arange(100, dtype=torch.float32)
out = torch.empty(100)
add[(2,)](x, torch.ones(100), out, 100, BLOCK=64)
assert torch.equal(out, x + 1)
print("vector add ran in the interpreter, triton", triton.__version__)
'''
KLAYOUT_DRC_PROBE = 'puts "drc ok"\n'


def result(ok: bool, detail: str, **extra: Any) -> Check:
    return {"ok": ok, "detail": detail, **extra}


def run_command(argv: list[str], timeout_s: float = 60.0, env: dict[str, str] | None = None,
                line: int = 0) -> Check:
    """Run ``argv``; ok when it exits 0 in time. The detail is output line ``line`` (-1: the last) or the failure."""
    if shutil.which(argv[0]) is None and not Path(argv[0]).exists():
        return result(False, f"{argv[0]} not found on PATH")
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s,
                              env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired:
        return result(False, f"{argv[0]} did not finish within {timeout_s:.0f} s")
    except OSError as error:
        return result(False, f"{argv[0]} could not start: {error.strerror}")
    text = (done.stdout.strip() or done.stderr.strip()).splitlines()
    if done.returncode != 0:
        last = text[-1] if text else ""
        return result(False, f"{argv[0]} exited {done.returncode}: {last[:200]}")
    return result(True, text[line][:200] if text else "ok")


def _run_script(argv: list[str], source: str, suffix: str, timeout_s: float, env: dict[str, str] | None = None) -> Check:
    with tempfile.TemporaryDirectory(prefix="agent-doctor-") as folder:
        script = Path(folder) / f"probe{suffix}"
        script.write_text(source)
        outcome = run_command([*argv, str(script)], timeout_s, env)
    return outcome


def docker_check() -> Check:
    try:
        from sandboxes.select import docker_answers
    except ImportError:
        return run_command(["docker", "info", "--format", "{{.ServerVersion}}"], 20)
    problem = docker_answers()
    return result(problem is None, "the Docker engine answers" if problem is None else f"not available: {problem}")


def bubblewrap_check() -> Check:
    version = run_command(["bwrap", "--version"], 10)
    if not version["ok"]:
        return version
    works = run_command(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net", "true"], 20)
    return result(works["ok"], version["detail"] + ("" if works["ok"] else f"; cannot isolate: {works['detail']}"))


def unshare_check() -> Check:
    outcome = run_command(["unshare", "--user", "--map-root-user", "--net", "true"], 20)
    return result(outcome["ok"], "user and network namespaces work" if outcome["ok"] else outcome["detail"])


def local_guarantees_check() -> Check:
    """What the local backend keeps on this host (:mod:`sandboxes.guarantees`): not ok when it lacks a safety
    guarantee; each lacking one is named with its reason, in one line."""
    from sandboxes.guarantees import GUARANTEES, SAFETY, lacking
    from sandboxes.isolation import probe

    caps = probe()
    missing = lacking(caps)
    detail = "; ".join(f"{name}: {why}" for name, why in missing.items()) or \
        f"{caps.mode}: all kept ({', '.join(GUARANTEES)})"
    return result(not any(name in missing for name in SAFETY), detail,
                  guarantees={name: name not in missing for name in GUARANTEES})


def gpu_check() -> Check:
    outcome = run_command(["nvidia-smi", "-L"], 20)
    if not outcome["ok"]:
        return result(False, f"no GPU: {outcome['detail']}")
    return outcome


def triton_check() -> Check:
    if not _installed("triton"):
        return result(False, "triton is not installed")
    return _run_script([sys.executable], TRITON_PROBE, ".py", 180)


def klayout_python_check() -> Check:
    try:
        import klayout.db as db

        box = db.Region(db.Box(0, 0, 10, 10))
        return result(box.area() == 100, f"klayout {metadata.version('klayout')} (Python API)")
    except Exception as error:  # an ImportError or a broken build both mean "not usable"
        return result(False, f"klayout Python API unusable: {type(error).__name__}: {error}")


def klayout_drc_check() -> Check:
    return _run_script(["klayout", "-b", "-r"], KLAYOUT_DRC_PROBE, ".drc", 120)


def _installed(package: str) -> bool:
    try:
        metadata.version(package)
        return True
    except metadata.PackageNotFoundError:
        return False


def provider_credentials() -> dict[str, Check]:
    """Which providers have credentials in the environment (the names of the variables, never their values)."""
    found = {}
    for provider, names in PROVIDER_ENV.items():
        present = [name for name in names if os.environ.get(name)]
        found[provider] = result(bool(present), f"{present[0]} is set" if present else f"set {' or '.join(names)}")
    return found


def models_section() -> dict[str, Any]:
    from agents.runtime.config import config_file
    from agents.runtime.models.resolve import choose_spec

    spec, source = choose_spec(None)
    default = spec or "offline policy (no model configured)"
    return {"default_model": result(spec is not None, default, source=source),
            "config_file": str(config_file() or "none"),
            "litellm": metadata.version("litellm") if _installed("litellm") else "not installed",
            "providers": provider_credentials()}


def selftest_section(enabled: bool) -> Check:
    """The sandbox selftest summary (the adversarial suite on the default backend)."""
    if not enabled:
        return result(True, "skipped (--no-selftest)", skipped=True)
    try:
        from sandboxes.selftest import run_selftest
    except ImportError:
        return result(False, "sandboxes.selftest is not available in this installation")
    try:
        summary, _rows = run_selftest("auto")
    except Exception as error:  # the selftest failing to run is itself a finding
        return result(False, f"selftest could not run: {type(error).__name__}: {error}")
    return result(bool(summary.get("all_contained")), f"{summary.get('contained')}/{summary.get('cases')} attacks "
                  f"contained on {summary.get('backend')}", summary=summary)


SANDBOX_CHECKS: dict[str, Callable[[], Check]] = {
    "docker": docker_check, "bubblewrap": bubblewrap_check, "unshare": unshare_check,
    "local_guarantees": local_guarantees_check}
TOOLCHAIN_CHECKS: dict[str, Callable[[], Check]] = {
    "g++": lambda: run_command(["g++", "--version"], 20), "nvcc": lambda: run_command(["nvcc", "--version"], 20, line=-1), "gpu": gpu_check,
    "triton_interpreter": triton_check, "klayout_python": klayout_python_check, "klayout_drc": klayout_drc_check,
    "python": lambda: result(True, sys.version.split()[0])}


def diagnose(*, selftest: bool = True) -> dict[str, Any]:
    """Every check, run side by side: ``{"sandboxes": ..., "toolchains": ..., "models": ..., "executor": ...}``
    (the executor section names the Ray cluster ``--executor ray`` would use, when Ray is installed)."""
    checks = {**{("sandboxes", k): v for k, v in SANDBOX_CHECKS.items()},
              ("sandboxes", "selftest"): lambda: selftest_section(selftest),
              **{("toolchains", k): v for k, v in TOOLCHAIN_CHECKS.items()}}
    with ThreadPoolExecutor(max_workers=len(checks)) as pool:
        futures = {key: pool.submit(check) for key, check in checks.items()}
        report: dict[str, Any] = {"sandboxes": {}, "toolchains": {}}
        for (section, name), future in futures.items():
            report[section][name] = future.result()
    docker_ok = report["sandboxes"]["docker"]["ok"]
    report["sandboxes"]["default_backend"] = result(True, "docker" if docker_ok else "local (docker unavailable)")
    report["models"] = models_section()
    from benchmarks.executor.survey import executor_section

    report["executor"] = executor_section()
    return report
