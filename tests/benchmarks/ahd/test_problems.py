"""Instance generators are seeded, tests reach beyond training sizes, and verification rejects cheats."""

import numpy as np
import pytest

from benchmarks.ahd.problem import IllegalSolution
from benchmarks.ahd.registry import PROBLEMS, get_problem
from sandboxes.errors import UserError


@pytest.mark.parametrize("name", list(PROBLEMS))
def test_sets_are_seeded_and_test_sizes_extend_training(name):
    problem = get_problem(name)
    train, test = problem.set_specs("train"), problem.set_specs("test")
    assert max(s.size for s in test) > max(s.size for s in train)
    for spec in train + test:
        first, again = problem.make(spec), problem.make(spec)
        for key in first.arrays:
            np.testing.assert_array_equal(first.arrays[key], again.arrays[key])
    assert len({s.seed for s in train + test}) >= len(test)


@pytest.mark.parametrize("name", list(PROBLEMS))
def test_every_set_has_a_positive_reference(name):
    problem = get_problem(name)
    for split in ("train", "test"):
        for spec in problem.set_specs(split):
            reference = problem.reference(problem.make(spec))
            assert reference.shape == (spec.count,) and (reference > 0).all()


def test_weibull_items_follow_the_protocol():
    problem = get_problem("bpp_online")
    c100, c500 = (problem.make(s) for s in problem.set_specs("test") if s.size == 5000)
    items = c100.arrays["items"]
    assert items.min() >= 1 and items.max() <= 100
    assert 38 < items.mean() < 42  # Weibull(3, 45) has mean 45 * Gamma(4/3) = 40.2
    assert (c500.arrays["items"] % 5 == 0).all() and c500.arrays["items"].max() <= 500


def test_bin_packing_rejects_an_overfull_bin():
    problem = get_problem("bpp_online")
    instances = problem.make(problem.set_specs("train")[0])
    everything_in_bin_zero = [[0] * instances.spec.size for _ in range(instances.count)]
    with pytest.raises(IllegalSolution, match="capacity"):
        problem.objectives(instances, everything_in_bin_zero)


def test_tsp_rejects_a_revisited_node_and_scores_a_valid_tour():
    problem = get_problem("tsp_construct")
    instances = problem.make(problem.set_specs("train")[0])
    identity = [list(range(instances.spec.size))] * instances.count
    assert (problem.objectives(instances, identity) > 0).all()
    revisit = [[0] * instances.spec.size] * instances.count
    with pytest.raises(IllegalSolution, match="revisits"):
        problem.objectives(instances, revisit)


def test_knapsack_and_cvrp_reject_overweight_solutions():
    kp = get_problem("kp_construct")
    instances = kp.make(kp.set_specs("train")[0])
    with pytest.raises(IllegalSolution):
        kp.objectives(instances, [list(range(instances.spec.size))] * instances.count)
    cvrp = get_problem("cvrp_construct")
    instances = cvrp.make(cvrp.set_specs("train")[0])
    one_route = [[0, *range(1, instances.spec.size + 1), 0]] * instances.count
    with pytest.raises(IllegalSolution, match="capacity"):
        cvrp.objectives(instances, one_route)


def test_knapsack_gap_is_measured_against_the_exact_optimum():
    problem = get_problem("kp_construct")
    instances = problem.make(problem.set_specs("train")[0])
    optimum = problem.reference(instances)
    assert problem.gap_percent(instances, optimum) == pytest.approx(0.0)
    assert problem.gap_percent(instances, optimum * 0.9) == pytest.approx(10.0)


def test_unknown_problem_is_a_user_error():
    with pytest.raises(UserError, match="bpp_online"):
        get_problem("sudoku")
