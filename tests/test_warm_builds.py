"""The warm builds run in a process of their own, so a selftest case in the test process never counts them."""

import os
import subprocess
import time
from pathlib import Path

from sandboxes.survivors import Watch
from sandboxes.targets.base import ExtensionSpec

from tests.warm_builds import WarmBuilds, spec_builds


class CompilerLikeTarget:
    """Stands in for a target whose build starts a compiler: once told to go, it runs a child process."""

    def __init__(self, cache) -> None:
        self.root = Path(cache.root)

    def build(self, spec: ExtensionSpec, sandbox) -> None:
        while not (self.root / "go").exists():
            time.sleep(0.02)
        compiler = subprocess.Popen(["sleep", "30"])
        (self.root / "started").write_text(f"{os.getpid()} {compiler.pid}")
        while not (self.root / "stop").exists():
            time.sleep(0.02)
        compiler.kill()
        compiler.wait()


def test_a_case_running_beside_a_warm_build_counts_none_of_its_processes():
    warm = WarmBuilds()
    build = spec_builds(CompilerLikeTarget, ExtensionSpec(kind="cpp", name="stand_in"))
    try:
        warm.start([build])  # the worker process exists before the case begins, as it does in a session
        with Watch(None) as watch:
            (warm.root / "go").write_text("")
            started = warm.root / "started"
            deadline = time.monotonic() + 60
            while not started.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            builder, compiler = map(int, started.read_text().split())
            left = watch.left(settle_s=0)
        (warm.root / "stop").write_text("")
        warm.wait([build])
    finally:
        (warm.root / "go").write_text("")
        (warm.root / "stop").write_text("")
        warm.close()
    assert builder != os.getpid() and left == []
    assert not os.path.exists(f"/proc/{compiler}")
