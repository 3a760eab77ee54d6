from agents.rpg.lift_offline import RPG, attach, doc_phrase, layout_path, name_phrase, words
from memory.rpg.graph import ROOT_ID, Node, NodeKind


def test_words_and_phrases():
    assert words("parse_HTTPHeader") == ["parse", "http", "header"]
    assert name_phrase(Node("a.py:load_config", NodeKind.FUNCTION, "load_config")) == "load config"
    assert name_phrase(Node("a.py:total", NodeKind.FUNCTION, "total")) == "handle total"
    assert name_phrase(Node("a.py:Cart.add_item", NodeKind.METHOD, "add_item")) == "add item of cart"
    assert name_phrase(Node("a.py:UserStore", NodeKind.CLASS, "UserStore")) == "define user store"
    assert doc_phrase("Compute the total. Then more.") == "compute the total"


def test_layout_and_attach_create_the_hierarchy_once():
    assert layout_path("setup.py") == ["(top level)"]
    assert layout_path("a/b/c/d/x.py") == ["a", "b", "c/d"]
    rpg = RPG()
    for path in ("a/b/c/d/x.py", "a/b/c/d/y.py"):
        rpg.add(Node(path, NodeKind.FILE, path))
        attach(rpg, path, layout_path(path))
    assert rpg.children(ROOT_ID) == ["area:a"] and rpg.children("area:a") == ["category:a/b"]
    assert rpg.children("subcategory:a/b/c/d") == ["a/b/c/d/x.py", "a/b/c/d/y.py"]
