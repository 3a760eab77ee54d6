"""End-to-end localisation with a scripted model driving the navigation tools."""

from agents.rpg.localize_agent import AgentConfig, localize_with_model, offline_state
from agents.rpg.localize_offline import POLICY, OfflineRanker
from agents.runtime.models.scripted import ScriptedModel
from tools.rpg.workspace import RPGWorkspace


def ranker_of(demo, demo_rpg):
    return OfflineRanker(RPGWorkspace(demo_rpg, repo=demo[0]))


def call(name, **arguments):
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def test_scripted_agent_searches_fetches_explores_and_submits(demo, demo_rpg):
    repo, instances = demo
    ranker = ranker_of(demo, demo_rpg)
    model = ScriptedModel([
        call("search_node", query="discount percent", kinds=["function"], top_k=3),
        call("fetch_node", names=["apply_discount"]),
        call("explore_rpg", start=["shop/pricing.py:apply_discount"], direction="upstream", edge_kinds=["invokes"]),
        call("no_such_tool"),
        call("submit_locations", locations=[
            {"file": "shop/pricing.py", "entity": "apply_discount", "reason": "divides by 10"},
            {"file": "shop/cart.py", "entity": "Cart.checkout"}]),
    ])
    state = localize_with_model(ranker, model, instances[0]["problem_statement"])
    assert model.remaining == 0 and state["source"] == "llm: scripted"
    assert [(loc["entity"], loc["start"], loc["end"]) for loc in state["locations"]] == [
        ("shop/pricing.py:apply_discount", 6, 8), ("shop/cart.py:Cart.checkout", 18, 19)]
    tool_results = [m["content"] for m in state["messages"] if m["role"] == "tool"]
    assert "shop/pricing.py:apply_discount" in tool_results[0]  # search found it
    assert "percent / 10" in tool_results[1]  # fetch returned the code
    assert "shop/cart.py:Cart.checkout" in tool_results[2]  # its caller, upstream
    assert tool_results[3].startswith("error: no tool named")
    # the first prompt lists function-level candidates with their files and line spans
    prompt = model.calls[0]["messages"][1]["content"]
    assert "1. shop/pricing.py:apply_discount (function in shop/pricing.py, lines 6-8)" in prompt
    assert "shop/models.py:Item (" not in prompt  # classes are not function candidates
    # the model saw the tool schemas on every turn
    assert {t["function"]["name"] for t in model.calls[0]["tools"]} == {
        "search_node", "fetch_node", "explore_rpg", "submit_locations"}


def test_agent_falls_back_to_the_offline_policy_when_it_never_submits(demo, demo_rpg):
    repo, instances = demo
    ranker = ranker_of(demo, demo_rpg)
    model = ScriptedModel(["I am thinking."] + [call("search_node", query="price")] * 2)
    state = localize_with_model(ranker, model, instances[1]["problem_statement"], AgentConfig(max_steps=3))
    assert state["source"].startswith(POLICY + " (fallback")
    offline = offline_state(ranker, instances[1]["problem_statement"])
    assert (state["locations"], state["files"], state["modules"]) == (offline["locations"], offline["files"],
                                                                      offline["modules"])


def test_bad_tool_arguments_go_back_to_the_model(demo, demo_rpg):
    model = ScriptedModel([call("fetch_node"), call("submit_locations", locations=[{"file": "shop/util.py"}])])
    state = localize_with_model(ranker_of(demo, demo_rpg), model, "anything")
    assert [m["content"] for m in state["messages"] if m["role"] == "tool"][0].startswith("error: tool fetch_node")
    assert state["locations"][0]["file"] == "shop/util.py"
