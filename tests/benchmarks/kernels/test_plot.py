"""The speedup plot."""

from benchmarks.kernels.plot import speedup_plot
from benchmarks.kernels.verifier.result import KernelResult, Status


def test_plot_written_only_when_something_was_timed(tmp_path):
    timed = [KernelResult("a", Status.CORRECT, runtime_ms=1.0, reference_ms=2.0),
             KernelResult("b", Status.CORRECT, runtime_ms=2.0, reference_ms=1.0),
             KernelResult("c", Status.INCORRECT)]
    path = speedup_plot(timed, ["a", "b", "c"], tmp_path / "speedup.png", "title")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert speedup_plot(timed[2:], ["c"], tmp_path / "none.png", "title") is None


def test_each_bar_runs_from_parity_to_its_speedup(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    closed = []
    monkeypatch.setattr(plt, "close", closed.append)
    results = [KernelResult("fast", Status.CORRECT, runtime_ms=1.0, reference_ms=4.0),
               KernelResult("slow", Status.CORRECT, runtime_ms=5.0, reference_ms=1.0)]
    speedup_plot(results, ["fast", "slow"], tmp_path / "speedup.png", "title")
    [figure] = closed
    axis = figure.axes[0]
    ends = sorted((round(bar.get_x(), 6), round(bar.get_x() + bar.get_width(), 6)) for bar in axis.patches)
    assert ends == [(1.0, 0.2), (1.0, 4.0)]  # anchored at 1x, not at the axis' lower edge
    low, high = axis.get_xlim()
    assert low < 0.2 and high > 5.0 and abs(low * high - 1.0) < 1e-9  # centred on 1x in log space
