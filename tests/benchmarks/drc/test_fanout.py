"""DRC deck runs fanned out over a real two-node Ray cluster give the verdicts of one local runner, in order."""

from benchmarks.drc.fanout import FannedDrcRunner
from benchmarks.drc.scoring import score_task
from benchmarks.drc.suite import load_suite, select_tasks


def test_a_deck_run_on_a_ray_cluster_gives_the_verdicts_of_one_local_runner(drc_runner):
    from tests.fakes.ray_cluster import shared_cluster

    from benchmarks.executor.ray_executor import RayExecutor, RayExecutorConfig

    shared_cluster()
    (task,) = select_tasks(load_suite(), "width_space-00")
    jobs = [(task.spec.gold_deck, layout.gds) for layout in task.layouts]
    local = drc_runner.evaluate(jobs)
    on_ray = FannedDrcRunner(RayExecutor(RayExecutorConfig(sandbox="local")), drc_runner.config).evaluate(jobs)
    assert len(jobs) >= 2  # so the two nodes get a batch each
    assert [(v.status, v.counts) for v in on_ray] == [(v.status, v.counts) for v in local]
    assert score_task(task, on_ray).row() == score_task(task, local).row()
