import pytest

from agents.evokernel.convergence import (attempt_latencies, attempts_to_fraction, best_latencies, bootstrap,
                                          paired)


def test_attempt_latencies_come_from_the_attempt_events_in_order():
    events = [{"kind": "evokernel.attempt", "task": "a", "attempt": 2, "feasible": True, "latency_ms": 2.0},
              {"kind": "evokernel.verified", "task": "a", "attempt": 9, "latency_ms": 0.1},
              {"kind": "evokernel.attempt", "task": "a", "attempt": 1, "feasible": False, "latency_ms": None},
              {"kind": "evokernel.attempt", "task": "b", "attempt": 1, "feasible": True, "latency_ms": 5.0}]
    latencies = attempt_latencies(events)
    assert latencies == {"a": [None, 2.0], "b": [5.0]}
    assert best_latencies([latencies, {"a": [1.5, 3.0]}]) == {"a": 1.5, "b": 5.0}


def test_attempts_to_ninety_percent_of_the_best_speed():
    assert attempts_to_fraction([None, 2.0, 1.05, 1.0], reference=1.0, budget=4) == 3  # 1.05 <= 1/0.9
    assert attempts_to_fraction([1.0], reference=1.0, budget=4) == 1
    assert attempts_to_fraction([None, 1.2], reference=1.0, budget=4) == 5  # never: budget + 1


def test_bootstrap_interval_and_paired_difference():
    constant = bootstrap({"a": [2.0, 2.0], "b": [2.0]})
    assert (constant.mean, constant.low, constant.high, constant.n) == (2.0, 2.0, 2.0, 2)
    spread = bootstrap({f"t{i}": [float(i)] for i in range(20)})
    assert spread.low < spread.mean < spread.high and spread.mean == pytest.approx(9.5)
    assert bootstrap({f"t{i}": [float(i)] for i in range(20)}) == spread  # a fixed generator
    effect = paired({"a": [1.0, 2.0], "b": [3.0]}, {"a": [2.0, 4.0], "b": [3.0], "c": [9.0]})
    assert effect.n == 2 and effect.mean == pytest.approx((-1.5 + 0.0) / 2)
    assert effect.low <= effect.mean <= effect.high
    assert bootstrap({}) is None
