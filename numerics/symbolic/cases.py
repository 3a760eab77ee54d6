"""The check cases: PDEs with known closed forms, and one without."""

from __future__ import annotations

from typing import Any

import sympy as sp

from numerics.symbolic.expressions import parse_expression

CLOSED_FORM: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "heat": ({"equation": "diff(u,t) - 3/10*diff(u,x,2)", "domain": {"x": [0, "pi"], "t": [0, 1]},
              "conditions": [{"variable": "t", "at": 0, "expr": "u", "value": "sin(x)"},
                             {"variable": "x", "at": 0, "expr": "u"}, {"variable": "x", "at": "pi", "expr": "u"}]},
             {"u": "exp(-3*t/10)*sin(x)"}),
    "wave": ({"equation": "diff(u,t,2) - 4*diff(u,x,2)", "domain": {"x": [0, "pi"], "t": [0, 1]},
              "conditions": [{"variable": "t", "at": 0, "expr": "u", "value": "sin(x)"},
                             {"variable": "t", "at": 0, "expr": "diff(u,t)"}, {"variable": "x", "at": 0, "expr": "u"}]},
             {"u": "sin(x)*cos(2*t)"}),
    "advection": ({"equation": "diff(u,t) + 3/2*diff(u,x)", "domain": {"x": [0, "2*pi"], "t": [0, 1]},
                   "conditions": [{"variable": "t", "at": 0, "expr": "u", "value": "sin(x)"}]},
                  {"u": "sin(x - 3*t/2)"}),
    "burgers_travelling_wave": ({"equation": "diff(u,t) + u*diff(u,x) - 1/2*diff(u,x,2)",
                                 "domain": {"x": [-3, 3], "t": [0, 1]},
                                 "conditions": [{"variable": "t", "at": 0, "expr": "u", "value": "1 - tanh(x)"},
                                                {"variable": "x", "at": -3, "expr": "u", "value": "1 - tanh(-3 - t)"},
                                                {"variable": "x", "at": 3, "expr": "u", "value": "1 - tanh(3 - t)"}]},
                                {"u": "1 - tanh(x - t)"}),
    "coupled_linear_system": ({"equations": ["diff(u,t) - diff(v,x)", "diff(v,t) - diff(u,x)"], "unknowns": ["u", "v"],
                               "domain": {"x": [0, "pi"], "t": [0, 1]},
                               "conditions": [{"variable": "t", "at": 0, "expr": "u", "value": "sin(x)"},
                                              {"variable": "t", "at": 0, "expr": "v"}]},
                              {"u": "sin(x)*cos(t)", "v": "cos(x)*sin(t)"}),
}

NO_CLOSED_FORM: dict[str, dict[str, Any]] = {
    "heat_parabolic_start": {"equation": "diff(u,t) - diff(u,x,2)", "domain": {"x": [0, "pi"], "t": [0, 1]},
                             "conditions": [{"variable": "t", "at": 0, "expr": "u", "value": "x*(pi - x)"},
                                            {"variable": "x", "at": 0, "expr": "u"},
                                            {"variable": "x", "at": "pi", "expr": "u"}]},
}

MAX_TERMS = {"coupled_linear_system": 1, "heat_parabolic_start": 3}


def matches(found: dict[str, sp.Expr], expected: dict[str, str]) -> bool:
    """Symbolic equality of every unknown's closed form."""
    x, t = sp.Symbol("x", real=True), sp.Symbol("t", real=True)
    return all(sp.simplify((found[name] - parse_expression(text, {"x": x, "t": t})).rewrite(sp.exp)) == 0
               for name, text in expected.items())
