"""saved_figure writes a PNG, creates the folder, and closes the figure even when drawing fails."""

import matplotlib.pyplot as plt
import pytest

from numerics.plotting import saved_figure


def test_writes_a_png_into_a_new_folder(tmp_path):
    path = tmp_path / "plots" / "line.png"
    with saved_figure(path) as (figure, axis):
        axis.plot([1, 2, 3])
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not plt.fignum_exists(figure.number)  # other tests' figures may be open in this process


def test_a_failing_drawing_saves_nothing_and_closes_the_figure(tmp_path):
    path = tmp_path / "broken.png"
    with pytest.raises(ValueError):
        with saved_figure(path) as (figure, axis):
            axis.plot([1, 2], [1, 2, 3])
    assert not path.exists() and not plt.fignum_exists(figure.number)
