"""The executor benchmark's pieces that need no cluster: a local leg (a warm-up round, then every job, in order)
and a leg's row (evaluations per minute, Ray's overhead beside one verification's time)."""

from tests.fakes import ray_jobs

from benchmarks.executor.base import Job
from benchmarks.executor.throughput import Leg, local_leg


def test_a_local_leg_runs_every_job_after_a_warm_up_round_and_keeps_their_order():
    jobs = [Job(f"job{i}", ray_jobs.where, (f"label{i}",)) for i in range(4)]
    leg = local_leg(jobs, width=2, sandbox="local")
    assert [value["label"] for value in leg.verdicts] == ["label0", "label1", "label2", "label3"]
    assert leg.name == "local" and leg.evaluations == 4 and leg.width == 2 and leg.overhead_ms is None


def test_a_legs_row_gives_the_rate_and_the_overhead_as_a_share_of_one_verification():
    row = Leg("ray, 2 nodes", seconds=30.0, evaluations=20, width=2, verdicts=[], overhead_ms=12.5).row(500.0)
    assert row["evaluations_per_min"] == 40.0 and row["overhead_ms_per_eval"] == 12.5
    assert row["overhead_pct_of_verification"] == 2.5
    assert Leg("local", 10.0, 5, 1, []).row(2000.0)["overhead_pct_of_verification"] is None
