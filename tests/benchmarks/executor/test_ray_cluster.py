"""The cluster as the executor sees it, without a cluster: how many evaluations a node takes, the totals named in
refusals, and the dead node named in Ray's NodeDiedError (the executor waits for the cluster to mark it dead)."""

import pytest

pytest.importorskip("ray", reason="Ray is not installed: pip install 'agentkiln[ray]'")

from benchmarks.executor.base import Needs  # noqa: E402
from benchmarks.executor import ray_cluster  # noqa: E402
from benchmarks.executor.ray_cluster import Inventory, Node, died_node, summary  # noqa: E402
from sandboxes.errors import UserError  # noqa: E402

NODE_ID = "933e36272e2437e361bb17e11c5b95480bd9ab17351b63054712dce9"


def node(cpus=4.0, gpus=0.0, npus=0.0):
    return Node(node_id=NODE_ID, address="192.0.2.2", cpus=cpus, gpus=gpus, npus=npus, memory_gb=8.0)


def test_a_node_takes_as_many_evaluations_as_its_scarcest_resource_allows():
    assert node(cpus=4).slots(Needs(cpus=1)) == 4
    assert node(cpus=4, gpus=1).slots(Needs(cpus=1, gpus=1)) == 1
    assert node(cpus=4).slots(Needs(npus=1)) == 0  # it has no NPU: it never gets one
    assert node(cpus=3, npus=8).slots(Needs(cpus=2, npus=1)) == 1


def test_refusals_name_the_live_nodes_totals():
    assert summary([node(cpus=2, gpus=1), node(cpus=1, npus=8)]) == "3 CPU, 1 GPU, 8 NPU"
    assert summary([]) == ""


def test_a_refusal_looks_at_the_cluster_again_first(monkeypatch):
    """A node with an NPU that joined after the last look (within the inventory's time to live) takes the job."""
    views = iter([[node(cpus=2)], [node(cpus=2), node(cpus=1, npus=1)], [node(cpus=2)]])
    monkeypatch.setattr(ray_cluster, "live_nodes", lambda: next(views))
    inventory = Inventory()
    inventory.require(Needs(cpus=1))  # the first look: no NPU anywhere
    inventory.require(Needs(npus=1))  # the cached view would refuse it; the fresh one has the new node
    with pytest.raises(UserError, match="needs 1 CPU, 1 NPU"):
        inventory.require(Needs(npus=1), fresh=True)  # the node is gone again


def test_the_node_a_lost_attempt_ran_on_is_read_from_rays_node_died_error():
    from ray.exceptions import NodeDiedError, WorkerCrashedError

    text = ("Task failed because the node it was running on is dead or unavailable. Node IP: 192.0.2.2, "
            f"node ID: {NODE_ID}. This can happen if the instance where the node was running failed")
    assert died_node(NodeDiedError(text)) == NODE_ID
    assert died_node(WorkerCrashedError()) is None  # the worker died, its node may live: retried at once
