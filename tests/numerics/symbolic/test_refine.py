import sympy as sp

from numerics.symbolic.refine import snap, verify
from numerics.symbolic.spec import parse_spec


def test_snap_to_zero_rationals_and_pi_multiples():
    a, b, c, d = sp.symbols("a b c d")
    snapped = snap({a: 3e-9, b: -0.300000004, c: 2 * 3.141592653589793 / 3 + 1e-9, d: 0.123456789})
    assert snapped[a] == 0 and snapped[b] == sp.Rational(-3, 10) and snapped[c] == 2 * sp.pi / 3
    assert isinstance(snapped[d], sp.Float)


def test_verify_is_symbolic():
    spec = parse_spec({"equation": "diff(u,t) + 3/2*diff(u,x)", "domain": {"x": [0, 1], "t": [0, 1]},
                       "conditions": [{"variable": "t", "at": 0, "expr": "u", "value": "sin(x)"}]})
    x, t = spec.variables
    assert verify(spec, {"u": sp.sin(x - sp.Rational(3, 2) * t)})
    assert not verify(spec, {"u": sp.sin(x - t)})
