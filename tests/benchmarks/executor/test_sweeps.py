"""Numerics sweep points as executor jobs: the rows and summary of the sequential check."""

from benchmarks.executor import LocalExecutor
from benchmarks.executor.sweeps import sigs_checks


def without_seconds(rows):
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


def test_the_local_executor_gives_the_checks_rows_and_summary():
    seen = []
    summary, rows = sigs_checks(LocalExecutor(), ["advection", "no_such_case"], on_row=seen.append)
    assert summary == {"closed_form_cases": 1, "recovered": 1, "no_closed_form_residuals": {}}
    assert [r["case"] for r in rows] == ["advection"] and rows[0]["exact"] is True and seen == rows


def test_cases_solved_on_a_ray_cluster_give_the_rows_of_this_process():
    from tests.fakes.ray_cluster import shared_cluster

    from benchmarks.executor.ray_executor import RayExecutor, RayExecutorConfig

    shared_cluster()
    here = sigs_checks(LocalExecutor(), ["advection"])
    on_ray = RayExecutor(RayExecutorConfig(sandbox="local"))
    try:
        there = sigs_checks(on_ray, ["advection"])
    finally:
        on_ray.close()
    assert there[0] == here[0] and without_seconds(there[1]) == without_seconds(here[1])
