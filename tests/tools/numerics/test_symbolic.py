from tools.numerics.symbolic import SOLVE_PDE_TOOL


def test_solve_pde_tool_round_trip():
    result = SOLVE_PDE_TOOL.invoke({
        "equation": "diff(u,t) - diff(u,x,2)", "domain": {"x": [0, "pi"], "t": [0, 1]},
        "conditions": [{"variable": "t", "at": 0, "value": "sin(x)"}], "ansatz": {"terms": 1, "depth": 2}})
    assert result["exact"] is True and result["solution"]["u"] == "exp(-t)*sin(x)"
    assert SOLVE_PDE_TOOL.openai_schema()["function"]["name"] == "solve_pde"
