import numpy as np
import sympy as sp

from numerics.symbolic.residual import Problem, is_linear
from numerics.symbolic.spec import parse_spec

HEAT = {"equation": "diff(u,t) - diff(u,x,2)", "domain": {"x": [0, "pi"], "t": [0, 1]},
        "conditions": [{"variable": "t", "at": 0, "expr": "u", "value": "sin(x)"}]}


def test_jet_residual_is_zero_for_the_solution_and_linear_in_coefficients():
    spec = parse_spec(HEAT)
    x, t = spec.variables
    problem = Problem(spec, interior=50, face=20)
    exact = sp.exp(-t) * sp.sin(x)
    assert np.abs(problem.residual([("u", exact)], [1.0])).max() < 1e-12
    base = problem.residual([], [])
    half = problem.residual([("u", exact)], [0.5])
    assert np.allclose(half - base, 0.5 * (problem.residual([("u", exact)], [1.0]) - base))


def test_linearity_detection():
    assert is_linear(parse_spec(HEAT))
    burgers = dict(HEAT, equation="diff(u,t) + u*diff(u,x) - diff(u,x,2)")
    assert not is_linear(parse_spec(burgers))
