"""The ray executor on a real two-node cluster: jobs run in Ray workers, their events reach the run with node and
attempt, a lost worker's job is sent again as the next attempt, and a job no node can take is refused."""

import os
import threading
import time

import pytest

from tests.fakes import ray_jobs
from tests.fakes.ray_cluster import add_node, busy_workers, shared_cluster

from benchmarks.executor import make_executor
from benchmarks.executor.base import Job, Needs, run_all
from benchmarks.executor.ray_executor import RayExecutor, RayExecutorConfig
from sandboxes.errors import UserError
from sandboxes.telemetry import event_sink


@pytest.fixture(scope="module")
def executor():
    shared_cluster()
    executor = RayExecutor(RayExecutorConfig(sandbox="local", wait_s=1.0))
    yield executor
    executor.close()


def collect(events):
    return event_sink(lambda kind, fields: events.append((kind, fields)))


def test_jobs_run_in_ray_workers_and_their_events_reach_the_driver(executor):
    events = []
    with collect(events):
        values = run_all(executor, [Job(f"job{i}", ray_jobs.where, (f"label{i}",)) for i in range(3)], width=1)
    assert [value["label"] for value in values] == ["label0", "label1", "label2"]
    assert all(value["pid"] != os.getpid() for value in values)
    forwarded = [fields for kind, fields in events if kind == "test.job"]
    assert sorted(f["label"] for f in forwarded) == ["label0", "label1", "label2"]
    assert all(f["executor_attempt"] == 1 and f["executor_node"] for f in forwarded)
    results = [fields for kind, fields in events if kind == "executor.result"]
    assert sorted(r["key"] for r in results) == ["job0", "job1", "job2"] and all(r["attempt"] == 1 for r in results)
    assert len(executor.overheads_s) >= 3 and executor.width(1, Needs()) == 2  # two one-CPU nodes


def test_an_error_the_evaluation_raises_is_the_same_error_as_locally(executor):
    with pytest.raises(UserError, match="^this node has no sandbox$"):
        executor.run(Job("bad", ray_jobs.refuse, ("this node has no sandbox",)))


def test_a_worker_that_dies_mid_evaluation_has_its_job_sent_again_as_attempt_two(executor, tmp_path):
    events = []
    marker = tmp_path / "died"
    with collect(events):
        answer = executor.run(Job("fragile", ray_jobs.die_once, (str(marker),)))
    dead_pid = int(marker.read_text())
    assert answer.startswith("answered by") and answer != f"answered by {dead_pid}"
    (retry,) = [fields for kind, fields in events if kind == "executor.retry"]
    assert retry["key"] == "fragile" and retry["attempt"] == 1 and retry["retrying"]
    assert "WorkerCrashedError" in retry["error"]
    (result,) = [fields for kind, fields in events if kind == "executor.result"]
    assert result["attempt"] == 2


def test_a_job_that_needs_hardware_no_node_has_is_refused_at_once(executor):
    started = time.monotonic()
    with pytest.raises(UserError, match=r"needs 1 CPU, 1 GPU .* have 2 CPU, 0 GPU, 0 NPU"):
        executor.run(Job("gpu", ray_jobs.sleep_for, (0,), Needs(gpus=1)))
    with pytest.raises(UserError, match=r"needs 1 CPU, 1 NPU"):
        run_all(executor, [Job("npu", ray_jobs.sleep_for, (0,), Needs(npus=1))])
    assert time.monotonic() - started < 10


def test_jobs_whose_only_able_node_dies_are_refused_instead_of_left_waiting(executor):
    cluster = shared_cluster()
    node = add_node(NPU=1)
    outcomes = []

    def run_one(key):
        try:
            outcomes.append(executor.run(Job(key, ray_jobs.sleep_for, (60,), Needs(npus=1))))
        except UserError as error:
            outcomes.append(error)

    threads = [threading.Thread(target=run_one, args=(key,), daemon=True) for key in ("running", "queued")]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120
    while not busy_workers(node) and time.monotonic() < deadline:
        time.sleep(0.2)
    started = bool(busy_workers(node))
    cluster.remove_node(node, allow_graceful=False)  # also when the test fails: later tests expect two nodes
    assert started, f"the NPU node never started the job (outcomes so far: {outcomes})"
    for thread in threads:
        thread.join(90)  # a job left waiting would hold its thread (sleep_for holds a worker for 60 s)
    assert len(outcomes) == 2 and all(isinstance(o, UserError) and "needs 1 CPU, 1 NPU" in str(o) for o in outcomes)


def test_make_executor_joins_the_cluster_this_process_is_in_and_names_bad_specs(executor, monkeypatch):
    monkeypatch.delenv("AGENT_EXECUTOR", raising=False)
    joined = make_executor("ray", "local")
    assert joined.name == "ray" and not joined._owned  # already connected: closing it leaves the cluster up
    joined.close()
    with pytest.raises(UserError, match="unknown executor 'slurm'"):
        make_executor("slurm")
    monkeypatch.setenv("AGENT_EXECUTOR", "ray://")
    with pytest.raises(UserError, match="unknown executor"):
        make_executor()
