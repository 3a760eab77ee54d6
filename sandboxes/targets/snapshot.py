"""A read-only, content-addressed copy of our Python packages that sandboxed runners can import.

Sandboxes show the host read-only but may hide some folders (a private /tmp, the work dir mounted
at /work); the build cache folder is always exposed. So the runner imports our code from a
snapshot under the cache root, keyed by the hash of the copied files: edits produce a new snapshot.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path
from typing import Sequence

REPO_ROOT = Path(__file__).resolve().parents[2]


def _python_files(packages: Sequence[str]) -> list[Path]:
    return sorted(p for name in packages for p in (REPO_ROOT / name).rglob("*.py") if "__pycache__" not in p.parts)


def code_snapshot(cache_root: Path, packages: tuple[str, ...]) -> Path:
    """Folder holding a copy of ``packages`` (use it as PYTHONPATH); created once per content hash."""
    files = _python_files(packages)
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(REPO_ROOT)).encode() + b"\0" + path.read_bytes())
    final = cache_root / f"code-{digest.hexdigest()[:16]}"
    if final.is_dir():
        return final
    staging = Path(tempfile.mkdtemp(prefix=".code.", dir=cache_root))
    for path in files:
        target = staging / path.relative_to(REPO_ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    for folder in [staging, *staging.rglob("*")]:
        folder.chmod(0o755 if folder.is_dir() else 0o644)
    try:
        staging.rename(final)
    except OSError:  # a concurrent process made the same snapshot
        shutil.rmtree(staging, ignore_errors=True)
    return final
