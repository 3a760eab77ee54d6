"""The local executor runs each job in the calling thread, on the caller's place or its own warm one."""

import threading

from benchmarks.executor import make_executor
from benchmarks.executor.base import Job, Place
from benchmarks.executor.local import LocalExecutor


def job(place, box):
    return threading.current_thread(), place.keep("pool", dict), place


def test_jobs_run_here_on_the_given_place_or_the_executors_own():
    executor = LocalExecutor(sandbox="local")
    given = Place(kept={"pool": {"given": True}})
    thread, pool, place = executor.run(Job("a", job, (None,)), given)
    assert thread is threading.current_thread() and pool == {"given": True} and place is given
    _, first, default = executor.run(Job("b", job, (None,)))
    _, second, _ = executor.run(Job("c", job, (None,)))
    assert first is second and default.backend == "local"  # kept warm between jobs
    assert executor.width(3, Job("d", job).needs) == 3
    executor.close()


def test_local_is_the_default_executor(monkeypatch):
    monkeypatch.delenv("AGENT_EXECUTOR", raising=False)
    assert make_executor().name == "local"
