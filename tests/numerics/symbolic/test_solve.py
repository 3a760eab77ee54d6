import pytest

from numerics.symbolic.cases import CLOSED_FORM, NO_CLOSED_FORM, matches
from numerics.symbolic.solve import solve_pde


def test_wave_equation_is_recovered_exactly():
    spec, expected = CLOSED_FORM["wave"]
    solution = solve_pde(spec)
    assert solution.exact and matches(solution.expressions, expected)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["heat", "advection", "burgers_travelling_wave", "coupled_linear_system"])
def test_closed_forms_are_recovered_exactly(name):
    spec, expected = CLOSED_FORM[name]
    solution = solve_pde(spec, max_terms=1 if name == "coupled_linear_system" else 2)
    assert solution.exact and matches(solution.expressions, expected)


@pytest.mark.slow
def test_no_closed_form_reports_its_best_approximation():
    solution = solve_pde(NO_CLOSED_FORM["heat_parabolic_start"], max_terms=3)
    assert not solution.exact and 0 < solution.residual < 0.1
