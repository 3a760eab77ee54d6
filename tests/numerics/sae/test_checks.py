import matplotlib.pyplot as plt

from numerics.sae.checks import plot_sweep
from numerics.sae.selection import SweepPoint


def test_the_legend_sits_below_the_axes_and_covers_nothing(tmp_path, monkeypatch):
    closed = []
    monkeypatch.setattr(plt, "close", closed.append)
    points = [SweepPoint(k, 0.5 / k, 0.0, 0.0, min(1.0, k / 11)) for k in range(1, 22, 2)]
    path = plot_sweep(points, 11.1, 11, tmp_path / "sweep.png")
    assert path.read_bytes()[:4] == b"\x89PNG"
    [figure] = closed
    renderer = figure.canvas.get_renderer()
    legend = figure.axes[0].get_legend().get_window_extent(renderer)
    for axis in figure.axes:  # the projection axis and its twin (feature recovery)
        assert legend.y1 <= axis.get_window_extent(renderer).y0
    assert [text.get_text() for text in figure.axes[0].get_legend().get_texts()] == [
        "n-th decoder projection", "true L0 11.1", "chosen L0 11", "feature recovery"]
