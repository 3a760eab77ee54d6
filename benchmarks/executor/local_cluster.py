"""A Ray cluster whose nodes all run on this machine (``ray.cluster_utils.Cluster``): what ``agent bench executor``
measures and the tests run on.

Ray gives a new node a fixed 30 s to register with its head; on a busy machine a start can miss that, so a
head that did is left to Ray's reaper (it stops that head's processes when this process exits; none of its nodes
joins the cluster handed back) and a new head is started, up to ``tries`` times."""

from __future__ import annotations

from typing import Any

STORE_BYTES = 80 * 2**20
"""Object store per node (Ray's minimum is about 75 MiB; evaluations pass only small objects)."""


def started_cluster(tries: int = 3, **head_args: Any):
    """A new cluster with its head node started (``head_args``: ``Cluster.add_node``'s, e.g. ``num_cpus``)."""
    for _ in range(tries - 1):
        try:
            return _with_head(head_args)
        except Exception:  # "The current node timed out during startup"
            continue
    return _with_head(head_args)


def _with_head(head_args: dict[str, Any]):
    from ray.cluster_utils import Cluster

    cluster = Cluster()
    cluster.add_node(**{"object_store_memory": STORE_BYTES, "include_dashboard": False, **head_args})
    return cluster
