import io

from agents.runtime.progress import Progress


def test_plain_lines_when_not_a_terminal():
    stream = io.StringIO()
    with Progress("search", total=4, stream=stream) as progress:
        progress.update(step=1, cost=0.01)
        progress.update(step=1, cost=0.01)
        progress.update(step=2, best=0.123456)
    assert stream.getvalue().splitlines() == [
        "search | step 1/4 | cost $0.0100",
        "search | step 2/4 | best 0.1235 | cost $0.0100",
    ]


def test_live_display_renders_the_same_text():
    stream = io.StringIO()
    with Progress("search", stream=stream, live=True) as progress:
        progress.update(step=3, best="kernel_v3", cost=0.5)
        assert progress.text() == "search | step 3 | best kernel_v3 | cost $0.5000"
    assert "step 3" in stream.getvalue()
