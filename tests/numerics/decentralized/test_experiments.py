import numpy as np

from numerics.decentralized.experiments import gap_sweep, plot_curves, plot_gap_sweep


def test_gap_sweep_rows_and_plots(tmp_path):
    rows = gap_sweep(degrees=(8, 4), iterations=200)
    assert [row["degree"] for row in rows] == [8, 4]
    assert rows[0]["spectral_gap"] > rows[1]["spectral_gap"]
    assert rows[1]["dsgd_floor"] > rows[0]["dsgd_floor"]
    assert plot_gap_sweep(rows, tmp_path / "sweep.png").stat().st_size > 1000
    assert plot_curves({"a": np.geomspace(1, 1e-9, 20)}, "t", tmp_path / "c.png").exists()
