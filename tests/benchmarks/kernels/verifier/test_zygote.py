"""The fork server: the workers it forks inherit a frozen heap (no collection in a worker copies the server's pages)."""

import io
import os
import signal

import torch

from benchmarks.kernels.verifier.runner.zygote import ForkServer

REPORTS_FROZEN = "import gc\nraise RuntimeError(f'frozen objects: {gc.get_freeze_count()}')\n"


def test_a_worker_inherits_the_servers_objects_frozen(tmp_path):
    (tmp_path / "solution.py").write_text(REPORTS_FROZEN)
    blob = io.BytesIO()
    torch.save([], blob)
    forks = ForkServer()
    try:
        worker = forks.fork_worker("solution", str(tmp_path), 30.0)
        config = {"hooks": "sandboxes.targets.cpu", "cache_dir": "", "cache_salt": "", "threads": 1}
        worker.channel.send({"cmd": "start", "config": config, "init_seed": 0, "task": None}, blob.getvalue())
        reply = worker.channel.receive(30.0, max_blob_bytes=0)
    finally:
        forks.sock.close()  # the zygote exits; the worker is ours to stop (not our child: no subreaper here)
        os.waitpid(forks.pid, 0)
    os.kill(worker.pid, signal.SIGKILL)
    assert reply["event"] == "error" and "RuntimeError: frozen objects: " in reply["error"], reply
    frozen = int(reply["error"].split("RuntimeError: frozen objects: ")[1].split()[0])
    assert frozen > 10_000, reply["error"]  # torch alone leaves hundreds of thousands of objects
