"""Kernel verification as executor jobs: what a verification asks for, unreadable files, and a Ray node killed in
the middle of a run (the run finishes with every verdict once, and the events show the retry)."""

import threading
import time

from benchmarks.executor.base import Needs, Place
from benchmarks.executor.local import LocalExecutor
from benchmarks.kernels.fanout import file_job, verification_needs, verify_files
from benchmarks.kernels.suite import SOLUTIONS_ROOT, pair_solutions, run_pairs
from benchmarks.kernels.tasks import load_tasks
from benchmarks.kernels.verifier.harness import EvalConfig
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from sandboxes.targets.registry import get_target
from sandboxes.telemetry import event_sink

FAST = EvalConfig(trials=2, timing_budget_s=0.1)


def test_a_verification_asks_for_its_threads_and_the_targets_accelerator():
    assert verification_needs(get_target("cpu"), FAST) == Needs(cpus=1)
    assert verification_needs(get_target("npu"), FAST.model_copy(update={"threads": 2})) == Needs(cpus=2)
    assert verification_needs(get_target("gpu"), FAST) == Needs(gpus=1)
    assert verification_needs(get_target("ascendc"), FAST) == Needs(npus=1)


def test_the_driver_reads_each_solution_and_an_unreadable_one_is_a_crash(tmp_path):
    (task,) = load_tasks("builtin:L1:relu")
    folder = tmp_path / "gone.py"
    folder.mkdir()  # a folder where a file should be: reading it fails
    job = file_job(task, folder, get_target("cpu"), FAST, persistent=False)
    (result,) = verify_files([(task, folder)], get_target("cpu"), LocalExecutor(), Place(), FAST, False, 1)
    assert result.status.value == "crashed" and result.reason.startswith("cannot read solution:")
    source = SOLUTIONS_ROOT / "reference" / "cpu" / "L1__relu.py"
    carried = file_job(task, source, get_target("cpu"), FAST, persistent=True)
    assert carried.args[1] == source.read_text() and carried.key.startswith("L1/relu@") and job.key != carried.key


def test_a_node_killed_mid_run_loses_no_verdict_and_counts_none_twice():
    from tests.fakes.ray_cluster import add_node, busy_workers, shared_cluster
    from benchmarks.executor.ray_executor import RayExecutor, RayExecutorConfig

    tasks = load_tasks("builtin:L1:relu,softmax,sigmoid,silu")
    pairs = pair_solutions(tasks, SOLUTIONS_ROOT / "reference" / "cpu").pairs
    victim = add_node()
    executor = RayExecutor(RayExecutorConfig(sandbox="local", wait_s=2.0))
    events, results = [], []

    def run() -> None:
        with event_sink(lambda kind, fields: events.append((kind, fields))):
            results.extend(run_pairs(pairs, get_target("cpu"), config=FAST, jobs=1, executor=executor,
                                     runner=VerifierPool()))  # persistent: each node verifies through its own pool

    thread = threading.Thread(target=run)
    thread.start()
    deadline = time.monotonic() + 180
    while not busy_workers(victim) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert busy_workers(victim), "no verification ever ran on the added node"
    shared_cluster().remove_node(victim, allow_graceful=False)
    thread.join(600)
    assert [r.status.value for r in results] == ["correct"] * len(pairs)
    finished = [fields for kind, fields in events if kind == "executor.result"]
    assert sorted(f["key"].split("@")[0] for f in finished) == sorted(p.task.qualified_name for p in pairs)
    retried = {fields["key"] for kind, fields in events if kind == "executor.retry"}
    assert retried and all(f["attempt"] == 2 for f in finished if f["key"] in retried)
    verdicts = [fields for kind, fields in events if kind == "kernel.evaluate"]
    assert len(verdicts) == len(pairs)  # the lost attempt's events never reach the run
    assert all(f["executor_attempt"] == (2 if f["task"] in {k.split("@")[0] for k in retried} else 1)
               for f in verdicts)
