import numpy as np

from benchmarks.graphalign.suite import SuiteConfig, run_suite, write_dataset


def test_suite_rows_summary_and_trend(tmp_path):
    config = SuiteConfig(models=("gin", "gcn"), noises=(0.0, 0.3), nodes=40, degree=6, train_steps=40, test_pairs=2)
    summary, rows = run_suite(config)
    assert len(rows) == 2 * 3
    assert set(summary["ranking"]) == {"gin", "gcn", "laplacian"}
    assert summary["falls_with_noise"] is True
    assert summary["near_chance_at_high_noise"] is True


def test_write_dataset_round_trips(tmp_path):
    paths = write_dataset(tmp_path, count=2, nodes=20, degree=4, noise=0.1)
    data = np.load(paths[0])
    p = data["target"]
    assert data["source"].shape == data["copy"].shape == (20, 20) and sorted(p) == list(range(20))
