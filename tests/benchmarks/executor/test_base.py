"""The executor seam: places keep objects per node, ``run_all`` keeps order and the caller's run context."""

import threading

from benchmarks.executor.base import Job, Needs, Place, run_all
from benchmarks.executor.local import LocalExecutor
from sandboxes.telemetry import emit, event_sink


class Closable:
    def __init__(self):
        self.closed = False

    def close(self):
        self.closed = True


def test_a_place_makes_each_kept_object_once_and_closes_only_what_it_made():
    given = Closable()
    place = Place(kept={"given": given})
    made = place.keep("made", Closable)
    assert place.keep("made", Closable) is made and place.keep("given", Closable) is given
    place.close()
    assert made.closed and not given.closed
    assert place.keep("made", Closable) is not made  # a closed object is made anew on the next use


def test_a_place_hands_out_its_own_sandbox_and_leaves_the_default_to_the_caller():
    box = object()
    assert Place(sandbox=box).sandbox() is box and Place(sandbox=box).sandbox_or_default() is box
    assert Place().sandbox_or_default() is None  # no sandbox chosen until one is needed


def test_needs_describe_what_they_ask_for():
    assert Needs().describe() == "1 CPU"
    assert Needs(cpus=2, gpus=1).describe() == "2 CPU, 1 GPU" and Needs(npus=1).describe() == "1 CPU, 1 NPU"


def echo(place, value, barrier):
    emit("test.echo", value=value)
    barrier.wait()  # three at a time, or this times out
    return value * 2


def test_run_all_keeps_the_order_calls_on_result_once_each_and_reaches_the_callers_events():
    events, finished = [], []
    barrier = threading.Barrier(3, timeout=30)
    jobs = [Job(f"job{i}", echo, (i, barrier)) for i in range(6)]
    with event_sink(lambda kind, fields: events.append(fields["value"])):
        values = run_all(LocalExecutor(), jobs, width=3,
                         on_result=lambda done, index, value: finished.append((done, index, value)))
    assert values == [0, 2, 4, 6, 8, 10]
    assert sorted(events) == list(range(6))
    assert [done for done, _, _ in finished] == list(range(1, 7))
    assert sorted((index, value) for _, index, value in finished) == [(i, 2 * i) for i in range(6)]
    assert run_all(LocalExecutor(), []) == []
