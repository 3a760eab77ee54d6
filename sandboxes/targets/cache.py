"""Build cache keyed by source hash: ``<root>/<digest>/{meta.json, <artifact>}``.

The root is ``$AGENT_KERNEL_CACHE`` or ``~/.cache/agentkiln/kernels``. Failed builds are cached too
(their trimmed error), so re-submitting the same broken source costs nothing. Entries are written
to a temporary folder and renamed into place, so concurrent builders never see half an entry.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Mapping

from sandboxes.targets.base import BuildOutcome


def default_cache_root() -> Path:
    """``$AGENT_KERNEL_CACHE`` or ``~/.cache/agentkiln/kernels`` (created)."""
    root = Path(os.environ.get("AGENT_KERNEL_CACHE") or Path.home() / ".cache" / "agentkiln" / "kernels")
    root.mkdir(parents=True, exist_ok=True)
    return root


class BuildCache:
    """Stores build outcomes and their artifacts by digest."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root else default_cache_root()
        self.root.mkdir(parents=True, exist_ok=True)

    def lookup(self, digest: str) -> BuildOutcome | None:
        """The stored outcome for ``digest`` (marked cached), or None when it was never built."""
        meta = self.root / digest / "meta.json"
        if not meta.is_file():
            return None
        outcome = BuildOutcome(**json.loads(meta.read_text()))
        outcome.cached = True
        return outcome

    def store(self, digest: str, outcome: BuildOutcome, files: Mapping[str, bytes]) -> None:
        """Write ``outcome`` and its artifact ``files`` atomically under ``digest``."""
        final = self.root / digest
        staging = Path(tempfile.mkdtemp(prefix=f".{digest}.", dir=self.root))
        staging.chmod(0o755)  # workers run as another user and read entries through a read-only mount
        for name, data in files.items():
            (staging / Path(name).name).write_bytes(data)
        (staging / "meta.json").write_text(json.dumps({**asdict(outcome), "cached": False}))
        try:
            staging.rename(final)
        except OSError:  # another builder won the race; its entry is equivalent
            shutil.rmtree(staging, ignore_errors=True)

    def clear(self) -> None:
        """Delete every entry (``agent bench kernels --throughput`` uses this for cold runs)."""
        for entry in self.root.iterdir():
            shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink()
