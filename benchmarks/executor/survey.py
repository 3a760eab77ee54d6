"""What `agent doctor` says about the executor: which one runs evaluations, and the Ray cluster ``--executor ray``
would use (its live nodes with their CPUs, GPUs and NPUs) when Ray is installed."""

from __future__ import annotations

import os
from importlib import metadata
from typing import Any

from sandboxes.errors import UserError

from benchmarks.executor import ENV_VAR, check_spec
from benchmarks.executor.ray_cluster import INSTALL_HINT, Node, connect, import_ray, live_nodes, summary, where

Check = dict[str, Any]


def executor_section() -> dict[str, Check]:
    """``{"default": ..., "ray": ..., "node <address> <id>": ...}`` in doctor's check format."""
    try:
        spec = check_spec(None)
        default = {"ok": True, "detail": f"{spec} ({ENV_VAR}={os.environ[ENV_VAR]})" if os.environ.get(ENV_VAR)
                   else "local (this process; --executor ray or AGENT_EXECUTOR=ray to fan out)"}
    except UserError as error:
        return {"default": {"ok": False, "detail": str(error)}}
    return {"default": default, **ray_section(None if spec in ("local", "ray") else spec)}


def ray_section(address: str | None) -> dict[str, Check]:
    """The cluster at ``address`` (None: the one this process is in, else ``RAY_ADDRESS``); no new local instance
    is started just to look at it."""
    try:
        version = metadata.version("ray")
    except metadata.PackageNotFoundError:
        return {"ray": {"ok": False, "detail": f"not installed ({INSTALL_HINT} for --executor ray)"}}
    ray = import_ray()
    if not ray.is_initialized() and address is None and not os.environ.get("RAY_ADDRESS"):
        return {"ray": not_configured(version)}
    try:
        owned = connect(address)
    except UserError as error:
        return {"ray": {"ok": False, "detail": f"Ray {version}; {error}"}}
    try:
        nodes = live_nodes()
    finally:
        if owned:
            ray.shutdown()
    return {"ray": cluster_check(version, where(address) if owned else "the cluster this process is in", nodes),
            **{f"node {node.address} {node.node_id[:8]}": node_check(node) for node in nodes}}


def not_configured(version: str) -> Check:
    """Ray is installed but no cluster is named: ``--executor ray`` would start one on this machine."""
    return {"ok": True, "detail": f"Ray {version}; no cluster named (RAY_ADDRESS unset): --executor ray would "
                                  f"start a local instance on this machine ({os.cpu_count()} CPUs, its GPUs and "
                                  "NPUs as Ray detects them)"}


def cluster_check(version: str, place: str, nodes: list[Node]) -> Check:
    """One line for the whole cluster: where it is, its live nodes and their totals."""
    return {"ok": bool(nodes), "detail": f"Ray {version}; {place}: {len(nodes)} live node(s), "
                                         f"{summary(nodes) or 'nothing'}", "nodes": len(nodes)}


def node_check(node: Node) -> Check:
    """One live node's resources."""
    return {"ok": True, "detail": f"{node.cpus:g} CPU, {node.gpus:g} GPU, {node.npus:g} NPU, "
                                  f"{node.memory_gb:.1f} GiB memory"}
