"""The persistent trusted runner: imports torch once, then evaluates one candidate per request.

Runs as ``python -P -m benchmarks.kernels.verifier.runner.server [MODULE ...]`` in a sandbox started with
``Sandbox.spawn`` (``-P``: the writable work dir is never on ``sys.path``; the modules, the target's
hooks, are imported before the fork server starts, so no worker imports them again). It prints
``AKREADY``, then reads one JSON request per line on stdin (``id``, ``nonce``, ``task``, ``solution``,
``config``) and answers each with one ``AKRESULT <hmac> <json>`` line signed with that request's nonce,
exactly as the one-shot runner (:mod:`benchmarks.kernels.verifier.runner.trusted`) does, followed by
``AKREADY`` when it can take another.

Why a worker never holds a nonce: workers (the only processes running untrusted code) are forked by
the fork server (:mod:`benchmarks.kernels.verifier.runner.zygote`), which this process starts before it reads
its first request and which never receives a nonce; its stdin is /dev/null. This process clears its
dumpable flag, so other processes of the sandbox user cannot read its memory or open its pipes
through /proc (a sandbox that runs as root in its user namespace, the ``unshare`` fallback, does not
get that protection).

Between requests (:mod:`benchmarks.kernels.verifier.runner.sweep`) every descendant but the fork server is
killed, until none is left, and the work dir, /tmp and /dev/shm are emptied; the verdict is written
only after that. When the sandbox cannot be made clean again, or the fork server died, the server
exits after the verdict and the host starts a new one. When the fork server is gone before a
request's workers exist (no untrusted code of that request ran), the server prints ``AKRESTART`` and
exits, and the host retries the request on a new server.

Each verdict's phases end with ``cpu_s``: the CPU seconds the request cost this process and its workers.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import sys
import time
from typing import Any

import torch

from benchmarks.kernels.verifier.runner.sweep import sweep
from benchmarks.kernels.verifier.runner.trusted import evaluate_with, roles, signed_line
from benchmarks.kernels.verifier.runner.zygote import ForkServer, ZygoteGone
from sandboxes import linux


def _write_request_files(directory: str, request: dict[str, Any]) -> dict[str, Any]:
    """Create the request's directory with task.py, solution.py and config.json; the config."""
    os.mkdir(directory, 0o755)
    config = dict(request["config"])
    for name, text in (("task.py", request["task"]), ("solution.py", request["solution"]),
                       ("config.json", json.dumps(config))):
        with open(os.path.join(directory, name), "w") as handle:
            handle.write(text)
    return config


def serve_one(request: dict[str, Any], forks: ForkServer, work_dir: str) -> bool:
    """Evaluate one request and print its signed verdict; False when this server must be replaced."""
    started, cpu_before = time.perf_counter(), cpu_seconds()
    directory = os.path.join(work_dir, f"request-{int(request['id'])}")
    config = _write_request_files(directory, request)
    torch.set_num_threads(int(config.get("threads", 1)))
    os.chdir(directory)
    try:
        workers = {}
        for role in roles(config):
            workers[role] = forks.fork_worker(role, directory, float(config["call_timeout_s"]))
    except ZygoteGone as error:
        for worker in workers.values():
            worker.kill()
        _emit(f"AKRESTART {error}\n")
        return False
    try:
        result = evaluate_with(config, workers, started)
    finally:
        os.chdir(work_dir)
    clean = sweep({forks.pid}, work_dir)  # reaps the request's workers, so their CPU time counts below
    result.setdefault("phases", {})["cpu_s"] = round(cpu_seconds() - cpu_before, 3)
    _emit(signed_line(str(request["nonce"]), result))
    return clean and forks.alive()


def cpu_seconds() -> float:
    """User + system CPU seconds of this process and of its reaped descendants (the workers: this process is
    their subreaper) so far; a request's difference is what verifying it cost, whatever the machine's load."""
    own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime


def _emit(line: str) -> None:
    sys.stdout.write(line)
    sys.stdout.flush()


def main() -> int:
    """Import the modules named on the command line (the target's hooks: trusted code every worker needs),
    start the fork server, then answer requests until stdin closes or the sandbox is unclean."""
    linux.set_dumpable(False)
    linux.set_child_subreaper()
    for name in sys.argv[1:]:
        importlib.import_module(name)
    work_dir = os.getcwd()
    forks = ForkServer()  # before any request (and so any nonce) is read
    _emit("AKREADY\n")
    for line in sys.stdin:
        if not serve_one(json.loads(line), forks, work_dir):
            return 1
        _emit("AKREADY\n")  # the sandbox is clean: ready for the next request
    return 0


if __name__ == "__main__":
    sys.exit(main())
