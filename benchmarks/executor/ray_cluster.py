"""A Ray cluster as the executor sees it: connecting to it, its live nodes' resources, and whether some node
can take an evaluation at all (one that no node can take is refused at once, never left pending)."""

from __future__ import annotations

import logging
import math
import os
import re
import threading
import time
from dataclasses import dataclass

from sandboxes.errors import UserError

from benchmarks.executor.base import Needs

NPU_RESOURCE = "NPU"
"""Ray's resource name for Ascend NPUs (``ray start --resources '{"NPU": 8}'``, or detected by Ray on Ascend hosts)."""
INSTALL_HINT = "pip install 'agentkiln[ray]'"
INVENTORY_TTL_S = 5.0
"""How long a look at the cluster's nodes is trusted before it is taken again."""
POLL_S = 0.5
"""How often :meth:`Inventory.wait_gone` looks at the nodes again."""
NODE_ID = re.compile(r"node ID: ([0-9a-f]{56})")
"""The node id in the text of Ray's ``NodeDiedError``."""


def import_ray():
    """The ``ray`` module, or one clear line saying how to install it."""
    try:
        import ray
    except ImportError as error:
        raise UserError(f"--executor ray needs Ray, which is not installed: {INSTALL_HINT}") from error
    return ray


def where(address: str | None) -> str:
    """In words, the cluster ``ray.init(address)`` joins."""
    if address:
        return address
    if os.environ.get("RAY_ADDRESS"):
        return f"RAY_ADDRESS={os.environ['RAY_ADDRESS']}"
    return "a new local Ray instance"


def connect(address: str | None) -> bool:
    """Join the cluster at ``address`` (None: ``RAY_ADDRESS``, else a new local instance); True when this call
    made the connection (so its owner should ``ray.shutdown()``), False when one was already there."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    local = address is None and not os.environ.get("RAY_ADDRESS")
    try:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False,
                 **({"include_dashboard": False} if local else {}))
    except Exception as error:  # ConnectionError, a refused client handshake, a version mismatch: all one line
        raise UserError(f"cannot join the Ray cluster at {where(address)}: {type(error).__name__}: "
                        f"{str(error).strip().splitlines()[0] if str(error).strip() else 'no detail'}") from error
    return True


@dataclass(frozen=True)
class Node:
    """One live node of the cluster and its resources (totals, not what is free right now)."""

    node_id: str
    address: str
    cpus: float
    gpus: float
    npus: float
    memory_gb: float

    def slots(self, needs: Needs) -> int:
        """How many evaluations needing ``needs`` fit on this node at once (0: it can never take one)."""
        counts = [math.floor(have / want + 1e-9) for have, want in
                  ((self.cpus, needs.cpus), (self.gpus, needs.gpus), (self.npus, needs.npus)) if want > 0]
        return min(counts) if counts else 0


def live_nodes() -> list[Node]:
    """The cluster's live nodes (``ray.nodes()``)."""
    ray = import_ray()
    nodes = []
    for entry in ray.nodes():
        if not entry.get("Alive"):
            continue
        have = entry.get("Resources", {})
        nodes.append(Node(node_id=entry["NodeID"], address=str(entry.get("NodeManagerAddress", "")),
                          cpus=float(have.get("CPU", 0)), gpus=float(have.get("GPU", 0)),
                          npus=float(have.get(NPU_RESOURCE, 0)), memory_gb=float(have.get("memory", 0)) / 2**30))
    return nodes


class Inventory:
    """The live nodes, looked at again at most every ``INVENTORY_TTL_S`` seconds (or when asked to)."""

    def __init__(self) -> None:
        self._nodes: list[Node] = []
        self._taken = -math.inf
        self._lock = threading.Lock()

    def nodes(self, fresh: bool = False) -> list[Node]:
        """The live nodes; ``fresh``: look again now (after a node was lost)."""
        with self._lock:
            if fresh or time.monotonic() - self._taken > INVENTORY_TTL_S:
                self._nodes, self._taken = live_nodes(), time.monotonic()
            return self._nodes

    def wait_gone(self, node_id: str, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` until the cluster no longer lists ``node_id`` as alive; True when it does not.

        A task learns that its node died seconds before the cluster's health checks mark the node dead: until
        then the node still counts as able, so an attempt sent at once would wait on it (or be lost again)."""
        deadline = time.monotonic() + timeout_s
        while any(node.node_id == node_id for node in self.nodes(fresh=True)):
            if time.monotonic() >= deadline:
                return False
            time.sleep(POLL_S)
        return True

    def slots(self, needs: Needs) -> int:
        """Evaluations needing ``needs`` that the whole cluster runs at once."""
        return sum(node.slots(needs) for node in self.nodes())

    def require(self, needs: Needs, fresh: bool = False) -> None:
        """Refuse, with one line saying what is missing, an evaluation that no live node can ever take (a refusal
        always looks at the cluster again first: a node that has it may have joined since the last look)."""
        nodes = self.nodes(fresh)
        if not any(node.slots(needs) > 0 for node in nodes) and not fresh:
            nodes = self.nodes(fresh=True)
        if any(node.slots(needs) > 0 for node in nodes):
            return
        raise UserError(f"no node of the Ray cluster can run this evaluation: it needs {needs.describe()} and the "
                        f"{len(nodes)} live node(s) have {summary(nodes) or 'nothing'}; start a node that has it "
                        "(ray start --num-gpus N for GPUs, --resources '{\"NPU\": N}' for Ascend NPUs) "
                        "or choose another --target / --executor")


def summary(nodes: list[Node]) -> str:
    """The nodes' totals as ``4 CPU, 1 GPU, 0 NPU`` ('' for no node)."""
    if not nodes:
        return ""
    totals = [sum(getattr(node, kind) for node in nodes) for kind in ("cpus", "gpus", "npus")]
    return f"{totals[0]:g} CPU, {totals[1]:g} GPU, {totals[2]:g} NPU"


def died_node(error: BaseException) -> str | None:
    """The id of the node a lost attempt ran on, when Ray's error names it (``NodeDiedError`` does)."""
    found = NODE_ID.search(str(error))
    return found.group(1) if found else None
