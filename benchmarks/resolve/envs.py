"""One virtual environment per (repository, version, spec), built once from the package index and reused.

An environment is a venv made by an interpreter of the spec's Python version, its requirements installed
with pip from the index (the host's pip, ``pip --python``). Its folder holds ``env.json`` once it is
complete; a folder without it (a build that died) is built again. Builds of one key are serialised across
threads and processes (a lock file), so two instances of the same repository and version never build twice.
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.repo.checkout import slug
from benchmarks.resolve.specs import EnvSpec

READY_FILE = "env.json"
PIP_TIMEOUT_S = 1800


class EnvError(Exception):
    """The environment cannot be built here; the message says why (the instance is reported as an error)."""


@dataclass(frozen=True)
class Environment:
    """A ready environment: where it is, what the sandbox must see of it, and how it was obtained."""

    key: str
    path: Path
    readonly: tuple[str, ...]
    """Host folders the sandbox shows read-only: the venv and its base interpreter's installation."""
    reused: bool
    """True when this call found the environment already built."""
    seconds: float
    """Time this call spent getting it (building, or finding it ready)."""
    build_seconds: float
    """How long the build took when it was made."""

    @property
    def bin(self) -> str:
        return str(self.path / "bin")


def env_key(repo: str, version: str, spec: EnvSpec) -> str:
    digest = hashlib.sha256(spec.model_dump_json().encode()).hexdigest()[:10]
    return f"{slug(repo)}-{slug(version)}-{digest}"


def find_python(version: str) -> str | None:
    """An interpreter of ``version`` (``3.11``) on this machine: this one, ``pythonX.Y`` on PATH, or pyenv's."""
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        return sys.executable
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [shutil.which(f"python{version}"),
                  *sorted(glob.glob(str(pyenv / f"{version}.*" / "bin" / f"python{version}")), reverse=True)]
    return next((c for c in candidates if c and _is_python(c, version)), None)


def _is_python(path: str, version: str) -> bool:
    """True when ``path`` runs and is Python ``version`` (a pyenv shim of a version not installed is not)."""
    probe = "import sys; print('%d.%d' % sys.version_info[:2])"
    try:
        result = subprocess.run([path, "-c", probe], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and result.stdout.strip() == version


class EnvCache:
    """Environments under ``root``, one folder per key."""

    def __init__(self, root: str | Path):
        self.root = Path(root).resolve()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, repo: str, version: str, spec: EnvSpec) -> Environment:
        """The environment of ``repo`` at ``version``, built on first use; :class:`EnvError` if it cannot be."""
        key = env_key(repo, version, spec)
        started = time.perf_counter()
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock, _file_lock(self.root / f"{key}.lock"):
            path = self.root / key
            ready = _read_ready(path)
            reused = ready is not None
            if ready is None:
                ready = build(path, spec)
        return Environment(key, path, tuple(ready["readonly"]), reused, round(time.perf_counter() - started, 3),
                           ready["build_seconds"])


class _file_lock:
    """An exclusive ``flock`` on ``path`` (another process building the same environment waits)."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.handle = self.path.open("w")
        fcntl.flock(self.handle, fcntl.LOCK_EX)

    def __exit__(self, *exc) -> None:
        fcntl.flock(self.handle, fcntl.LOCK_UN)
        self.handle.close()


def _read_ready(path: Path) -> dict | None:
    try:
        return json.loads((path / READY_FILE).read_text())
    except (OSError, ValueError):
        return None


def build(path: Path, spec: EnvSpec) -> dict:
    """Make the venv at ``path`` and install the spec's requirements; returns what ``env.json`` records."""
    unmet = spec.unmet()
    if unmet:
        raise EnvError(unmet)
    interpreter = find_python(spec.python)
    if interpreter is None:
        raise EnvError(f"Python {spec.python} is not installed here (install it with pyenv or apt-get)")
    started = time.perf_counter()
    shutil.rmtree(path, ignore_errors=True)
    _run([interpreter, "-m", "venv", "--without-pip", *(["--system-site-packages"] * spec.system_site_packages),
          str(path)], "venv")
    requirements = spec.packages.split() + list(spec.pip_packages)
    if requirements:
        _run([sys.executable, "-m", "pip", "--python", str(path / "bin" / "python"), "install", "-q",
              "--disable-pip-version-check", *requirements], "pip install")
    base = _run([str(path / "bin" / "python"), "-c", "import sys; print(sys.base_prefix)"], "python").strip()
    record = {"spec": spec.model_dump(), "interpreter": interpreter, "readonly": [str(path), os.path.realpath(base)],
              "build_seconds": round(time.perf_counter() - started, 3), "built": time.time()}
    (path / READY_FILE).write_text(json.dumps(record, indent=1) + "\n")
    return record


def _run(argv: list[str], what: str) -> str:
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=PIP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise EnvError(f"{what} took more than {PIP_TIMEOUT_S} s") from None
    if result.returncode != 0:
        said = [line for line in (result.stderr or result.stdout).splitlines() if line.strip()]
        raise EnvError(f"{what} failed: {said[-1][:300] if said else f'exit {result.returncode}'}")
    return result.stdout
