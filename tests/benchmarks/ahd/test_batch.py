"""One sandboxed process runs a whole batch; one candidate's fault never becomes another's failure."""

import pytest

from benchmarks.ahd import batch
from benchmarks.ahd.batch import SetJob, SetScore, run_set
from benchmarks.ahd.evaluation import Evaluation
from benchmarks.ahd.evaluator import Evaluator, EvaluatorConfig, batched
from benchmarks.ahd.registry import get_problem

HEADER = "import numpy as np\n\ndef select_next_item(remaining_capacity, weights, values):\n"
GREEDY = get_problem("kp_construct").baselines["greedy_ratio"]
BY_VALUE = HEADER + "    return int(np.argmax(values))\n"
BREAKS_HARNESS = "import os\n" + HEADER + "    os.makedirs('result.json', exist_ok=True)\n    return 0\n"
"""Leaves a directory where the harness writes its result, so the whole sandboxed process ends without one."""
GLOBAL_STATE = HEADER + "    np.random.seed(99)\n    return int(np.argmax(values / weights))\n"


class Counting:
    """The real sandbox, counting its runs."""

    def __init__(self, sandbox):
        self.sandbox, self.runs = sandbox, 0

    def run(self, *args, **kwargs):
        self.runs += 1
        return self.sandbox.run(*args, **kwargs)


@pytest.fixture
def evaluator(sandbox):
    return Evaluator(get_problem("kp_construct"), "train", EvaluatorConfig(wall_s=4.0, memory_mb=512),
                     sandbox=Counting(sandbox))


def test_a_batch_is_one_sandbox_run_per_instance_set(evaluator):
    results = evaluator.evaluate_batch([GREEDY, BY_VALUE, GLOBAL_STATE])
    assert evaluator.sandbox.runs == len(evaluator.instance_sets) == 1
    assert [r.ok for r in results] == [True, True, True]
    assert results[0].score == results[2].score < results[1].score  # no state leaks between candidates
    assert len(results[0].objectives["train_n50"]) == evaluator.instance_sets[0][0].count


def test_a_candidate_that_breaks_the_harness_fails_alone(evaluator, monkeypatch):
    monkeypatch.setattr(batch, "RETRY_PAUSE_S", 0.0)  # still tried SANDBOX_ATTEMPTS times, batch and alone
    instances, npz = evaluator.instance_sets[0]
    outcomes = run_set(evaluator.job, [GREEDY, BREAKS_HARNESS, BY_VALUE], ["a", "b", "c"], instances, npz)
    assert evaluator.sandbox.runs == 2 * batch.SANDBOX_ATTEMPTS + 2  # the batch, then the broken one alone
    assert isinstance(outcomes[0], SetScore) and isinstance(outcomes[2], SetScore)
    assert isinstance(outcomes[1], Evaluation) and outcomes[1].failure == "crash"
    assert "no result" in outcomes[1].message


def test_batch_limits_grow_with_the_batch(evaluator):
    job: SetJob = evaluator.job
    assert job.limits(4).wall_s > job.limits(1).wall_s and not job.limits(1).network


def test_batches_are_cut_by_size_and_spread_over_workers():
    codes = [str(i) for i in range(10)]
    assert batched(codes, 8, 2) == [codes[:5], codes[5:]]
    assert batched(codes, 3, 1) == [codes[:3], codes[3:6], codes[6:9], codes[9:]]
    assert batched([], 8, 2) == []
