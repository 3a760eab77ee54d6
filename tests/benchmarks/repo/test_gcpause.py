import gc
import threading

import pytest

from benchmarks.repo.gcpause import collector_paused, paused


@pytest.fixture
def collector_on():
    before = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if before else gc.disable)()


def test_nested_pauses_turn_the_collector_back_on_after_the_last(collector_on):
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off(collector_on):
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_overlapping_pauses_in_threads_end_with_the_last_one(collector_on):
    inside, release = threading.Event(), threading.Event()

    def hold():
        with collector_paused():
            inside.set()
            release.wait(10)

    worker = threading.Thread(target=hold)
    worker.start()
    inside.wait(10)
    with collector_paused():
        pass
    assert not gc.isenabled()  # the worker's pause is still open
    release.set()
    worker.join(10)
    assert gc.isenabled()


def test_a_paused_function_runs_without_the_collector_and_errors_restore_it(collector_on):
    @paused
    def fails():
        assert not gc.isenabled()
        raise ValueError("boom")

    with pytest.raises(ValueError):
        fails()
    assert gc.isenabled()
