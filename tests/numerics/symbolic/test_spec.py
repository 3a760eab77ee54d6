import numpy as np
import pytest
import sympy as sp

from numerics.symbolic.spec import parse_spec


def test_parse_spec_keeps_pi_exact_and_samples_faces():
    spec = parse_spec({"equation": "diff(u,t) - diff(u,x,2)", "domain": {"x": [0, "pi"], "t": [0, 1]},
                       "conditions": [{"variable": "x", "at": "pi", "expr": "u"}]})
    assert spec.domain["x"] == (0.0, pytest.approx(np.pi))
    assert spec.conditions[0].face == sp.pi
    face = spec.face_points(spec.conditions[0], 5)
    assert np.allclose(face["x"], np.pi) and ((0 <= face["t"]) & (face["t"] <= 1)).all()


def test_substitute_evaluates_derivatives():
    spec = parse_spec({"equation": "diff(u,t) - diff(u,x,2)", "domain": {"x": [0, 1], "t": [0, 1]}})
    x, t = spec.variables
    assert spec.substitute(spec.equations[0], {"u": sp.exp(-t) * sp.sin(x)}) == 0


def test_bad_expression_is_reported():
    with pytest.raises(ValueError, match="cannot parse"):
        parse_spec({"equation": "diff(u,t) +* 2", "domain": {"x": [0, 1], "t": [0, 1]}})
