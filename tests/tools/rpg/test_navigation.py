import json

import pytest

from memory.rpg.graph import EdgeKind, Node, NodeKind
from sandboxes.errors import UserError
from tools.rpg.navigation import rpg_tools


@pytest.fixture
def tools(workspace):
    return {tool.name: tool for tool in rpg_tools(workspace)}


def ids(results):
    return [r["id"] for r in results]


def test_search_node_modes_scopes_and_kinds(tools):
    search = tools["search_node"]
    assert ids(search(query="discount percent", top_k=3))[0] == "shop/pricing.py:apply_discount"
    assert ids(search(query="aply discnt", mode="feature", top_k=1)) == ["shop/pricing.py:apply_discount"]
    assert set(ids(search(query="unit_price", mode="code", kinds=["method"], scopes=["shop/models.py:Item"]))) == {
        "shop/models.py:Item.price", "shop/models.py:Item.__init__"}  # not DiscountedItem's methods
    scoped = search(query="price", scopes=["area:shop"], top_k=50)
    assert all(r["path"].startswith("shop/") for r in scoped)
    assert search(query="zzzqqq") == []
    [hit] = search(query="apply_discount", kinds=["function"], top_k=1)
    assert (hit["path"], hit["lines"], hit["signature"]) == ("shop/pricing.py", [6, 8], "def apply_discount(total, percent)")


def test_search_node_leaves_tests_out_unless_asked(workspace):
    workspace.rpg.add(Node("tests/test_cart.py", NodeKind.FILE, "test_cart.py", "tests/test_cart.py", 1, 2))
    workspace.rpg.add(Node("tests/test_cart.py:test_discount", NodeKind.FUNCTION, "test_discount", "tests/test_cart.py",
                           1, 2, signature="def test_discount()"))
    workspace.rpg.link("tests/test_cart.py", "tests/test_cart.py:test_discount", EdgeKind.CONTAINS)
    search = {tool.name: tool for tool in rpg_tools(workspace)}["search_node"]
    assert "tests/test_cart.py:test_discount" not in ids(search(query="test_discount", mode="feature", top_k=50))
    assert ids(search(query="test_discount", mode="feature", include_tests=True, top_k=1)) == [
        "tests/test_cart.py:test_discount"]


def test_fetch_node_returns_code_features_and_location(tools):
    [total, missing] = tools["fetch_node"](names=["Cart.total", "nope"])
    assert total["id"] == "shop/cart.py:Cart.total" and total["lines"] == [15, 16]
    assert total["code"] == "    def total(self):\n        return sum(item.price() for item in self.items)"
    assert total["parent"] == "shop/cart.py:Cart" and total["features"] == ["handle total of cart"]
    assert missing == {"name": "nope", "error": "no such node"}
    [file_node] = tools["fetch_node"](names=["shop/util.py"], max_lines=2)
    assert file_node["code"].startswith('"""Money helpers."""') and "more lines" in file_node["code"]


def test_explore_rpg_directions_depth_and_filters(tools):
    explore = tools["explore_rpg"]
    down = explore(start=["shop/cart.py:Cart.checkout"], edge_kinds=["invokes"], depth=2)
    assert {(e["source"], e["target"], e["depth"]) for e in down["edges"]} == {
        ("shop/cart.py:Cart.checkout", "shop/cart.py:Cart.total", 1),
        ("shop/cart.py:Cart.checkout", "shop/pricing.py:apply_discount", 1),
        ("shop/cart.py:Cart.checkout", "shop/pricing.py:add_tax", 1),
        ("shop/pricing.py:apply_discount", "shop/util.py:round_money", 2),
        ("shop/pricing.py:add_tax", "shop/util.py:round_money", 2)}
    up = explore(start=["shop/models.py:Item"], direction="upstream", edge_kinds=["inherits", "invokes"], depth=1)
    assert {e["source"] for e in up["edges"]} == {"shop/models.py:DiscountedItem", "shop/cart.py:Cart.add"}
    both = explore(start=["shop/models.py:Item"], direction="both", edge_kinds=["contains"], node_kinds=["file"])
    assert [n["id"] for n in both["nodes"]] == ["shop/models.py"]


def test_tools_export_as_openai_schemas_and_langchain(tools):
    schema = tools["explore_rpg"].openai_schema()
    assert schema["function"]["name"] == "explore_rpg"
    assert schema["function"]["parameters"]["properties"]["direction"]["enum"] == ["upstream", "downstream", "both"]
    json.dumps([t.openai_schema() for t in tools.values()])
    result = tools["search_node"].as_langchain().invoke({"query": "round money", "top_k": 1})
    assert result[0]["id"] == "shop/util.py:round_money"
    with pytest.raises(UserError, match="bad arguments"):
        tools["explore_rpg"].invoke({"start": ["x"], "depth": 99})


def test_a_call_asks_about_at_most_max_names_names():
    from pydantic import ValidationError

    from tools.rpg.navigation import MAX_NAMES, ExploreArgs, FetchArgs, SearchArgs

    assert len(FetchArgs(names=["a"] * MAX_NAMES).names) == MAX_NAMES
    for make in (lambda names: FetchArgs(names=names), lambda names: ExploreArgs(start=names),
                 lambda names: SearchArgs(query="q", scopes=names)):
        with pytest.raises(ValidationError):
            make(["a"] * (MAX_NAMES + 1))
