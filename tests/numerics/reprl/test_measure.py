import pytest

from numerics.reprl.measure import Instances, loglog_slope, run_trials, samples_needed

INSTANCES = Instances.draw(4, 3, 2, count=2, seed=0, tied=2)


def test_trials_measure_replication_and_suboptimality():
    few, many = (run_trials(INSTANCES, "fixed", n, 0.1, 0.1, pairs=30, seed=5) for n in (64, 2**36))
    assert few.replication < 0.6 and many.replication == 1.0
    assert 0 <= many.worst_suboptimality <= 0.1 and many.samples_per_run == 2**36 * 24


def test_samples_needed_is_the_first_grid_point_meeting_both_criteria():
    found, tried = samples_needed(INSTANCES, "ours", 0.1, 0.1, pairs=30, seed=5, start=16, doublings=40)
    assert found == tried[-1] and found.samples_per_run < found.n * 24
    assert found.replication >= 0.9 and found.worst_suboptimality <= 0.1
    assert all(t.replication < 0.9 or t.worst_suboptimality > 0.1 for t in tried[:-1])
    assert [t.n for t in tried] == [16 * 2**k for k in range(len(tried))]
    assert samples_needed(INSTANCES, "ours", 0.1, 0.1, pairs=30, seed=5, start=16, doublings=2)[0] is None


def test_loglog_slope_recovers_a_power_law():
    assert loglog_slope([4, 8, 16], [3 * 4**2.5, 3 * 8**2.5, 3 * 16**2.5]) == pytest.approx(2.5)
    assert loglog_slope([4, 8], [10**30, 2**7 * 10**30]) == pytest.approx(7)
