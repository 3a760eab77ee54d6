"""What `agent doctor` reports about the executor: the default, and the live nodes of the Ray cluster this process
is in (a real two-node cluster), or that none is named (no instance is started just to look)."""

from benchmarks.executor.survey import executor_section, not_configured


def test_with_no_cluster_named_doctor_says_what_executor_ray_would_do(monkeypatch):
    monkeypatch.delenv("AGENT_EXECUTOR", raising=False)
    assert not_configured("2.60.0")["detail"].startswith("Ray 2.60.0; no cluster named (RAY_ADDRESS unset)")
    monkeypatch.setenv("AGENT_EXECUTOR", "slurm")
    assert executor_section() == {"default": {"ok": False,
                                              "detail": "unknown executor 'slurm': use local, ray or ray://HOST:PORT"}}


def test_the_cluster_this_process_is_in_is_reported_node_by_node(monkeypatch):
    from tests.fakes.ray_cluster import shared_cluster

    from benchmarks.executor.ray_cluster import live_nodes, summary

    shared_cluster()
    monkeypatch.setenv("AGENT_EXECUTOR", "ray")
    section = executor_section()
    nodes = live_nodes()
    assert section["default"]["detail"] == "ray (AGENT_EXECUTOR=ray)"
    ray = section["ray"]
    assert ray["ok"] and ray["nodes"] == len(nodes) >= 2 and summary(nodes) in ray["detail"]
    rows = [check["detail"] for name, check in section.items() if name.startswith("node ")]
    assert len(rows) == len(nodes) and all(row.startswith("1 CPU, 0 GPU, 0 NPU") for row in rows)
