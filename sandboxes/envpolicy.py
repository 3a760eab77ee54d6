"""The environment a sandboxed command sees: an allow-list, never the host's secrets."""

from __future__ import annotations

import os
import re
from typing import Mapping, Sequence

from sandboxes.errors import UserError

# Host variables copied in when set: locale and accelerator selection only.
HOST_PASS_THROUGH = ("LANG", "LC_ALL", "LC_CTYPE", "TZ", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES",
                     "CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME",
                     "ASCEND_VISIBLE_DEVICES")

SEARCH_PATHS = ("PATH", "LD_LIBRARY_PATH", "PYTHONPATH")
"""Folder lists whose empty or relative entries mean the current directory, the job's writable work dir: a host's
``LD_LIBRARY_PATH=/usr/local/cuda/lib64:`` (a common trailing colon) made every program started in a sandbox load
libraries the job had planted there."""

MAX_ARG_BYTES = 128 << 10
"""The kernel's MAX_ARG_STRLEN: the most one argument or one ``NAME=value`` may take, its NUL included."""
MAX_EXEC_BYTES = 1 << 20
"""Arguments and environment together, with a pointer's 8 bytes for each: well under ARG_MAX (a quarter of an 8 MiB
stack), which also has to hold the wrapper's own arguments (bubblewrap's, three per variable)."""

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


def check_exec(argv: Sequence[str], env: Mapping[str, str]) -> None:
    """Refuse (UserError) a command line or environment the kernel's ``execve`` would: on the local backend it raised
    OSError or ValueError, on the docker one the runner failed and the job came back as a sandbox failure."""
    if not argv:
        raise UserError("the command is empty")
    total = 0
    items = [(f"argument {index}", os.fsencode(str(arg))) for index, arg in enumerate(argv)]
    for name, value in env.items():
        if not name or "=" in name or "\0" in name:
            raise UserError(f"environment variable name {name!r} is not valid (empty, or it holds '=' or NUL)")
        items.append((f"environment variable {name}", os.fsencode(f"{name}={value}")))
    for what, data in items:
        if b"\0" in data:
            raise UserError(f"{what} holds a NUL byte, which no command line can carry")
        if len(data) >= MAX_ARG_BYTES:
            raise UserError(f"{what} is {len(data):,} bytes; the kernel takes at most {MAX_ARG_BYTES >> 10} KiB for one "
                            "(put long text in a file and pass its name)")
        total += len(data) + 1 + 8
    if total > MAX_EXEC_BYTES:
        raise UserError(f"the command line and environment take {total:,} bytes; at most {MAX_EXEC_BYTES >> 20} MiB "
                        "(put long text in files)")
