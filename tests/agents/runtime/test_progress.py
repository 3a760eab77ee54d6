import io

from agents.runtime.progress import Progress


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_plain_lines_when_not_a_terminal_with_elapsed_and_time_left():
    stream, clock = io.StringIO(), Clock()
    with Progress("search", total=4, stream=stream, clock=clock, heartbeat_s=0) as progress:
        clock.now += 2
        progress.update(step=1, cost=0.01)
        progress.update(step=1, cost=0.01)  # nothing changed: no line
        clock.now += 70
        progress.update(step=2, best=0.123456)
    assert stream.getvalue().splitlines() == [
        "search | step 1/4 | 0m02s elapsed, ~0m06s left | cost $0.0100",
        "search | step 2/4 | best 0.1235 | 1m12s elapsed, ~1m12s left | cost $0.0100",
    ]


def test_an_estimated_total_and_a_heartbeat_while_nothing_changes():
    stream, clock = io.StringIO(), Clock()
    progress = Progress("evokernel", total=190, unit="attempts", estimated=True, stream=stream, clock=clock,
                        heartbeat_s=10)
    progress.update(step=5)
    clock.now += 9
    progress.beat()  # printed 9 s ago: quiet
    clock.now += 1
    progress.beat()  # 10 s without a line: the same counts again, with the new elapsed time
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and all("attempts 5/~190" in line for line in lines)
    assert "0m10s elapsed" in lines[1]


def test_heartbeat_thread_runs_off_a_terminal_only():
    with Progress("a", stream=io.StringIO()) as plain:
        assert plain._beater is not None and plain._beater.is_alive()
    assert plain._beater is None
    with Progress("b", stream=io.StringIO(), live=True) as live:
        assert live._beater is None


def test_live_display_shows_the_count_and_best():
    stream = io.StringIO()
    with Progress("search", stream=stream, live=True, total=10, unit="attempts") as progress:
        progress.update(step=3, best="kernel_v3", cost=0.5)
        assert progress.text().startswith("search | attempts 3/10 | best kernel_v3 |")
    assert "attempts 3/10" in stream.getvalue() and "best kernel_v3" in stream.getvalue()
