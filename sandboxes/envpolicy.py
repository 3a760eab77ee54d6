"""The environment a sandboxed command sees: an allow-list, never the host's secrets."""

from __future__ import annotations

import os
import re
from typing import Mapping

from sandboxes.errors import UserError

# Host variables copied in when set: locale and accelerator selection only.
HOST_PASS_THROUGH = ("LANG", "LC_ALL", "LC_CTYPE", "TZ", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES",
                     "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME",
                     "ASCEND_VISIBLE_DEVICES")

SEARCH_PATHS = ("PATH", "LD_LIBRARY_PATH", "PYTHONPATH")
"""Folder lists whose empty or relative entries mean the current directory, the job's writable work dir: a host's
``LD_LIBRARY_PATH=/usr/local/cuda/lib64:`` (a common trailing colon) made every program started in a sandbox load
libraries the job had planted there."""

_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|COOKIE|AUTH", re.IGNORECASE)


def is_secret_name(name: str) -> bool:
    """True for variable names that look like they hold a credential."""
    return bool(_SECRET_NAME.search(name))


def sandbox_env(extra: Mapping[str, str] | None, *, home: str, path: str, threads: int) -> dict[str, str]:
    """Build the full environment for one command: defaults, safe host values, then the caller's ``extra``.

    A caller variable whose name looks like a credential is refused: generated code never gets keys.
    """
    env = {
        "PATH": path,
        "HOME": home,
        "USER": "sandbox",
        "LOGNAME": "sandbox",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "PYTHONNOUSERSITE": "1",
        "MPLBACKEND": "Agg",
        "OMP_NUM_THREADS": str(threads),
        "MKL_NUM_THREADS": str(threads),
        "TRITON_CACHE_DIR": "/tmp/.triton",
    }
    env.update({name: os.environ[name] for name in HOST_PASS_THROUGH if name in os.environ})
    for name, value in (extra or {}).items():
        if is_secret_name(name):
            raise UserError(f"refusing to pass the credential-like variable {name!r} into a sandbox")
        env[str(name)] = str(value)
    for name in SEARCH_PATHS:
        if name in env:
            kept = [entry for entry in env.pop(name).split(":") if entry.startswith("/")]
            if kept:
                env[name] = ":".join(kept)
    return env
