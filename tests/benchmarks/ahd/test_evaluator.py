"""The evaluator runs candidates in the real sandbox: scores, clear failures, cache, parallelism."""

import pytest

from benchmarks.ahd.evaluator import Evaluator, EvaluatorConfig
from benchmarks.ahd.registry import get_problem

KP_HEADER = "import numpy as np\n\ndef select_next_item(remaining_capacity, weights, values):\n"
HOSTILE = {
    "crash": KP_HEADER + "    raise RuntimeError('boom')\n",
    "hang": KP_HEADER + "    while True:\n        pass\n",
    "fork": "import os\n" + KP_HEADER + "    while True:\n        os.fork()\n",
    "nan": KP_HEADER + "    return float('nan')\n",
    "memory": KP_HEADER + "    return len(bytearray(8 * 2**30))\n",
    "out_of_range": KP_HEADER + "    return len(weights) + 3\n",
    "syntax": "def select_next_item(:\n",
}


@pytest.fixture
def kp_evaluator(sandbox, tmp_path):
    config = EvaluatorConfig(wall_s=4.0, memory_mb=512, workers=2, cache_path=tmp_path / "cache.sqlite")
    return Evaluator(get_problem("kp_construct"), "train", config, sandbox=sandbox)


def test_the_greedy_baseline_scores_a_small_finite_gap(kp_evaluator):
    evaluation = kp_evaluator.evaluate(get_problem("kp_construct").baselines["greedy_ratio"])
    assert evaluation.ok and 0.0 < evaluation.score < 2.0
    assert set(evaluation.gaps) == {"train_n50"}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_hostile_heuristics_are_contained_and_fail_clearly(kp_evaluator, kind):
    evaluation = kp_evaluator.evaluate(HOSTILE[kind])
    assert not evaluation.ok and evaluation.score is None
    expected = {"crash": {"crash"}, "hang": {"timeout"}, "fork": {"crash", "timeout"},
                "nan": {"invalid_return"}, "memory": {"crash", "memory"}, "out_of_range": {"illegal_solution"},
                "syntax": {"crash"}}[kind]
    assert evaluation.failure in expected, evaluation.message
    assert evaluation.message
    assert evaluation.fitness == float("inf")


def test_illegal_tsp_move_and_bad_bin_packing_return(sandbox):
    tsp = Evaluator(get_problem("tsp_construct"), "train", EvaluatorConfig(wall_s=10), sandbox=sandbox)
    revisit = "def select_next_node(current_node, destination_node, unvisited_nodes, distance_matrix):\n" \
              "    return current_node\n"
    assert tsp.evaluate(revisit).failure == "illegal_solution"
    bpp = Evaluator(get_problem("bpp_online"), "train", EvaluatorConfig(wall_s=10), sandbox=sandbox)
    scalar = "import numpy as np\ndef priority(item, bins_remain_cap):\n    return 1.0\n"
    nan = "import numpy as np\ndef priority(item, bins_remain_cap):\n    return bins_remain_cap * np.nan\n"
    assert [e.failure for e in bpp.evaluate_many([scalar, nan])] == ["invalid_return", "invalid_return"]


def test_results_are_cached_by_code_hash(kp_evaluator):
    code = get_problem("kp_construct").baselines["greedy_ratio"]
    first = kp_evaluator.evaluate(code)
    second = kp_evaluator.evaluate(code)
    assert not first.cached and second.cached and second.score == first.score
    reopened = Evaluator(kp_evaluator.problem, "train", kp_evaluator.config, sandbox=kp_evaluator.sandbox)
    assert reopened.evaluate(code).cached


def test_parallel_evaluation_keeps_order_and_deduplicates(kp_evaluator):
    greedy = get_problem("kp_construct").baselines["greedy_ratio"]
    by_value = KP_HEADER + "    return int(np.argmax(values))\n"
    results = kp_evaluator.evaluate_many([greedy, by_value, greedy, HOSTILE["crash"]])
    assert [r.ok for r in results] == [True, True, True, False]
    assert results[0].score == results[2].score < results[1].score


def test_batches_scored_on_a_ray_cluster_score_as_here(kp_evaluator):
    from tests.fakes.ray_cluster import shared_cluster

    from benchmarks.executor.ray_executor import RayExecutor, RayExecutorConfig

    shared_cluster()
    greedy = get_problem("kp_construct").baselines["greedy_ratio"]
    codes = [greedy, KP_HEADER + "    return int(np.argmax(values))\n", HOSTILE["crash"]]
    config = kp_evaluator.config.model_copy(update={"cache_path": None})
    on_ray = Evaluator(kp_evaluator.problem, "train", config, executor=RayExecutor(RayExecutorConfig(sandbox="local")))
    here = Evaluator(kp_evaluator.problem, "train", config, sandbox=kp_evaluator.sandbox)
    assert [(r.ok, r.score, r.failure) for r in on_ray.evaluate_many(codes)] == \
        [(r.ok, r.score, r.failure) for r in here.evaluate_many(codes)]
