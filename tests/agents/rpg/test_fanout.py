"""Repository-localisation instances through the Executor seam: the same outcomes as the harness here."""

from benchmarks.executor import LocalExecutor
from benchmarks.repo.demo import write_demo_instances
from benchmarks.repo.harness import RepoBenchConfig, run_benchmark
from benchmarks.repo.instances import load_instances

from agents.rpg.bench import make_localizer
from agents.rpg.fanout import absolute_spec, run_fanned


def outcomes_through(executor, instances, bench, spec="rpg"):
    """``{instance id: (skipped, file/function predictions, scores)}`` of a fanned run over ``executor``."""
    found = {}
    run_fanned(executor, spec, bench, instances, lambda outcomes: found.update(
        {o.instance.instance_id: summary(o) for o in outcomes}))
    return found


def summary(outcome):
    return outcome.skipped, outcome.prediction.files, outcome.prediction.functions, outcome.scores


def demo(tmp_path):
    instances = load_instances(write_demo_instances(tmp_path / "demo"), set())
    return instances, RepoBenchConfig(cache_dir=str(tmp_path / "cache"))


def test_the_local_executor_gives_the_harness_outcomes(tmp_path):
    instances, bench = demo(tmp_path)
    here = {o.instance.instance_id: summary(o) for o in run_benchmark(instances, make_localizer("rpg", None), bench)}
    assert outcomes_through(LocalExecutor(), instances, bench) == here
    assert len(here) == len(instances) and not any(skipped for skipped, *_ in here.values())


def test_a_predictions_file_is_named_by_its_absolute_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert absolute_spec("predictions:p.jsonl") == f"predictions:{tmp_path / 'p.jsonl'}"
    assert absolute_spec("bm25") == "bm25"


def test_instances_localised_on_a_ray_cluster_score_as_here(tmp_path):
    from tests.fakes.ray_cluster import shared_cluster

    from benchmarks.executor.ray_executor import RayExecutor, RayExecutorConfig

    shared_cluster()
    instances, bench = demo(tmp_path)
    here = outcomes_through(LocalExecutor(), instances, bench, "bm25")
    on_ray = RayExecutor(RayExecutorConfig(sandbox="local"))
    try:
        assert outcomes_through(on_ray, instances, bench, "bm25") == here
    finally:
        on_ray.close()
