"""A real Ray cluster of two nodes on this machine (``ray.cluster_utils.Cluster``), shared by every test of a
pytest session that asks for it: a head and one worker node, one CPU each, small object stores. It starts on
first use (this process joins it) and stops when the process exits. ``add_node`` adds a node a test may kill;
``busy_workers`` names a node's Ray workers that are running an evaluation right now."""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'agentkiln[ray]'")
from ray.cluster_utils import Cluster  # noqa: E402

from benchmarks.executor.local_cluster import STORE_BYTES, started_cluster  # noqa: E402

NODE_ARGS = {"num_cpus": 1, "object_store_memory": STORE_BYTES}
HEALTH_CHECKS = {"health_check_initial_delay_ms": 1000, "health_check_period_ms": 1000,
                 "health_check_failure_threshold": 3}
"""A killed node is marked dead about 3 s after it stops answering (Ray's default: 15 s and more); a node that is
only slow is not (each check still waits Ray's default 10 s for an answer)."""
ROOT = Path(__file__).resolve().parents[2]
"""This checkout, which the nodes' workers import from."""
_cluster: Cluster | None = None


def shared_cluster() -> Cluster:
    """The session's cluster, started (and joined) on first use."""
    global _cluster
    if _cluster is None:
        with node_environment():
            cluster = started_cluster(**NODE_ARGS, _system_config=HEALTH_CHECKS)
            cluster.add_node(**NODE_ARGS)
            ray.init(address=cluster.address, log_to_driver=False, logging_level=logging.WARNING)
        atexit.register(_stop, cluster)
        _cluster = cluster
    return _cluster


@contextlib.contextmanager
def node_environment() -> Iterator[None]:
    """While nodes start: this folder as their working directory (never a test's tmp_path), and this checkout on
    their workers' PYTHONPATH (they import benchmarks and tests.fakes as an installed agentkiln would be)."""
    here, path = os.getcwd(), os.environ.get("PYTHONPATH")
    os.chdir(Path(__file__).parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), path]))
    try:
        yield
    finally:
        os.chdir(here)
        if path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = path


def _stop(cluster: Cluster) -> None:
    ray.shutdown()
    cluster.shutdown()


def add_node(**resources: Any):
    """A further node of the shared cluster (one CPU, plus ``resources``), once the cluster sees it."""
    cluster = shared_cluster()
    with node_environment():
        node = cluster.add_node(**NODE_ARGS, **({"resources": resources} if resources else {}))
    cluster.wait_for_nodes()
    return node


def live_node_ids() -> set[str]:
    """The node ids Ray reports alive."""
    return {entry["NodeID"] for entry in ray.nodes() if entry["Alive"]}


def busy_workers(node) -> list[int]:
    """Pids of ``node``'s Ray workers that are executing an evaluation (process title ``ray::run_job``)."""
    raylet = node.all_processes["raylet"][0].process.pid
    busy = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            parent = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            title = (proc / "cmdline").read_bytes().split(b"\0")[0]
        except (OSError, IndexError, ValueError):
            continue
        if parent == raylet and title.startswith(b"ray::run_job"):
            busy.append(int(proc.name))
    return busy
