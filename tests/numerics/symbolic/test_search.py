import sympy as sp

from numerics.symbolic.grammar import generate_blocks
from numerics.symbolic.residual import Problem
from numerics.symbolic.search import Fitter, beam_search
from numerics.symbolic.spec import parse_spec


def test_beam_search_finds_the_exact_structure_on_the_grid():
    spec = parse_spec({"equation": "diff(u,t) - diff(u,x,2)", "domain": {"x": [0, "pi"], "t": [0, 1]},
                       "conditions": [{"variable": "t", "at": 0, "expr": "u", "value": "2*sin(x)"}]})
    pool = [("u", b) for b in generate_blocks(spec.variables, depth=2)]
    best = beam_search(Fitter(Problem(spec, interior=60, face=30), pool, linear=True), pool, max_terms=1, beam=2)[0]
    assert best.residual < 1e-10
    x, t = spec.variables
    assert sp.simplify(sp.nsimplify(best.solution(["u"])["u"]) - 2 * sp.exp(-t) * sp.sin(x)) == 0
