"""LLM roles: unusable replies are re-asked once, then fall back or are dropped, never crash the search."""

from agents.pathwise.roles import LLMRoles
from agents.runtime.models.scripted import ScriptedModel
from benchmarks.ahd.registry import get_problem
from memory.entailment.graph import HeuristicNode

PROBLEM = get_problem("kp_construct")
NODES = [HeuristicNode("a", PROBLEM.seed_code, "greedy", score=0.4), HeuristicNode("b", "x", "bad", failure="crash")]


def test_unparsable_policy_reply_falls_back_to_improving_the_best_node():
    model = ScriptedModel(["no json here", "still nothing"])
    actions = LLMRoles(model).propose(PROBLEM, NODES, 2, "")
    assert [a.parents for a in actions] == [["a"]]
    assert "could not be used" in model.calls[1]["messages"][-1]["content"]


def test_rollout_is_re_asked_once_then_dropped():
    good = "DESCRIPTION: d\n```python\ndef select_next_item(remaining_capacity, weights, values):\n    return 0\n```"
    assert LLMRoles(ScriptedModel(["prose", good])).rollout(PROBLEM, NODES[:1], "go", "", False, 0).description == "d"
    assert LLMRoles(ScriptedModel(["prose", "more prose"])).rollout(PROBLEM, NODES[:1], "go", "", False, 0) is None


def test_critics_return_the_model_text():
    roles = LLMRoles(ScriptedModel(["  keep going  ", "use numpy"]))
    assert roles.policy_advice(PROBLEM, []) == "keep going"
    assert roles.world_model_advice(PROBLEM, ("a", "gap 1%"), ("b", "FAILED")) == "use numpy"
