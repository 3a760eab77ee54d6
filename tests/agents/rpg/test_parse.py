import ast

import pytest

from agents.rpg.parse import dotted, module_name, parse_file, walk

SOURCE = '''"""Module doc."""
import os.path
import numpy as np
from . import sibling
from ..core import Base as B, helper
from pkg.util import *


@register("x")
def top(a, b=default()):
    """Do the top thing."""
    return np.sum(helper(a)) + os.path.join(a)


class Child(B, metaclass=Meta):
    def __init__(self):
        super().__init__()
        self.run()

    @property
    def value(self):
        def inner():
            return top(1)
        return inner()
'''


def test_units_with_locations_signatures_and_docstrings():
    facts = parse_file("pkg/sub/mod.py", SOURCE, "pkg.sub.mod")
    units = {u.qualname: u for u in facts.units}
    assert list(units) == ["top", "Child", "Child.__init__", "Child.value", "Child.value.inner"]
    assert (units["top"].kind, units["top"].start, units["top"].end) == ("function", 9, 12)
    assert units["top"].signature == "def top(a, b=default())" and units["top"].docstring == "Do the top thing."
    assert units["Child.value"].kind == "method" and units["Child.value.inner"].kind == "function"
    assert units["Child"].bases == ["B"]
    assert facts.docstring == "Module doc." and facts.lines == SOURCE.count("\n") + 1


def test_imports_aliases_relative_and_star():
    facts = parse_file("pkg/sub/mod.py", SOURCE, "pkg.sub.mod")
    assert ("os", "os", "") in facts.imports and ("os.path", "os.path", "") in facts.imports
    assert ("np", "numpy", "") in facts.imports
    assert ("sibling", "pkg.sub", "sibling") in facts.imports
    assert ("B", "pkg.core", "Base") in facts.imports and ("helper", "pkg.core", "helper") in facts.imports
    assert facts.stars == ["pkg.util"]


def test_calls_are_attributed_to_the_innermost_unit():
    units = {u.qualname: u for u in parse_file("pkg/sub/mod.py", SOURCE, "pkg.sub.mod").units}
    assert set(units["top"].calls) == {"register", "default", "np.sum", "helper", "os.path.join"}
    assert units["Child.__init__"].calls == ["super().__init__", "self.run"]
    assert units["Child.value.inner"].calls == ["top"] and units["Child.value"].calls == ["inner"]


def test_hash_ignores_positions_but_not_code():
    first = parse_file("m.py", "def f():\n    return 1\n", "m").units[0].ast_hash
    moved = parse_file("m.py", "\n\n# comment\ndef f():\n    return 1\n", "m").units[0].ast_hash
    changed = parse_file("m.py", "def f():\n    return 2\n", "m").units[0].ast_hash
    assert first == moved != changed


def test_a_units_hash_covers_its_own_lines_only():
    source = "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"
    def hashes(text):
        return {u.qualname: u.ast_hash for u in parse_file("m.py", text, "m").units}
    base = hashes(source)
    sibling_edited = hashes(source.replace("return 2", "return 3"))
    swapped = hashes("class A:\n    def g(self):\n        return 2\n\n    def f(self):\n        return 1\n")
    commented = hashes(source.replace("return 1", "return 1  # one"))
    assert sibling_edited["A.f"] == base["A.f"] != commented["A.f"]
    assert sibling_edited["A.g"] != base["A.g"] and sibling_edited["A"] != base["A"]
    assert swapped["A.f"] == base["A.f"] and swapped["A.g"] == base["A.g"]


def test_module_names_follow_package_chains():
    packages = {"src/pkg", "src/pkg/sub"}
    assert module_name("src/pkg/sub/mod.py", packages) == "pkg.sub.mod"
    assert module_name("src/pkg/__init__.py", packages) == "pkg"
    assert module_name("setup.py", packages) == "setup"
    assert module_name("tests/test_x.py", packages) == "test_x"


def test_bad_source_raises_syntax_error():
    with pytest.raises(SyntaxError):
        parse_file("bad.py", "def broken(:\n", "bad")


def test_dotted_names():
    texts = ("a.b.c", "super().x", "f()[0]", "G[int]", "Foo().run", "f()[0].x", "a.b().c")
    assert [dotted(ast.parse(text).body[0].value) for text in texts] == [
        "a.b.c", "super().x", "", "G", "Foo().run", "", ""]


TYPED = """from app import Flask
app = Flask()
current: "Flask" = proxy()


class Service:
    limit: int = 3

    def __init__(self, app: Flask, cache=None):
        self.app = app
        self.store = Store()
        helper = Helper()

        def inner():
            local = Other()
        helper.run()
"""


def test_type_facts_of_modules_functions_and_classes():
    facts = parse_file("m.py", TYPED, "m")
    units = {u.qualname: u for u in facts.units}
    assert facts.variables == {"app": "Flask", "current": "Flask"}
    assert units["Service"].types == {"limit": "int", "app": "Flask", "store": "Store"}
    assert units["Service.__init__"].types == {"app": "Flask", "helper": "Helper"}
    assert units["Service.__init__.inner"].types == {"local": "Other"}
    assert "helper.run" in units["Service.__init__"].calls


def test_walk_visits_the_nodes_of_ast_walk_in_its_order():
    tree = ast.parse("import a\n@deco(1)\nclass C(B):\n    x: int = f(y)\n    def m(self, z=g()):\n"
                     "        return [h(i) for i in z if i]\nprint(C().m(), *rest, k=lambda: 2)\n")
    assert [id(node) for node in walk(tree)] == [id(node) for node in ast.walk(tree)]
    assert list(walk(tree.body[0].names[0])) == [tree.body[0].names[0]]


def test_calls_are_listed_once_each_across_statements_in_first_seen_order():
    facts = parse_file("m.py", "a()\nb()\na()\ndef f():\n    b()\n    c()\n    b()\nc()\n", "m")
    assert facts.calls == ["a", "b", "c"]
    assert [unit.calls for unit in facts.units] == [["b", "c"]]
