from benchmarks.repo.gold import entities_at, gold_for, gold_from_changes

SOURCE = """import os

class A:
    x = 1

    def m(self):
        def inner():
            return 1
        return inner()


def f():
    return 2
"""

PATCH = """--- a/p.py
+++ b/p.py
@@ -8,1 +8,1 @@
-            return 1
+            return 3
@@ -13,1 +13,1 @@
-    return 2
+    return 4
"""


def test_entities_collapse_nested_functions_onto_methods():
    assert entities_at(SOURCE, {8, 13}) == (["A", "f"], ["A.m", "f"])
    assert entities_at(SOURCE, {4}) == (["A"], ["A"])  # class body outside methods
    assert entities_at(SOURCE, {1}) == ([], [])


def test_gold_from_code_at_base_then_changes_then_files_only():
    derived = gold_for(PATCH, {"p.py": SOURCE}.get, None)
    assert (derived.files, derived.modules, derived.functions, derived.source) == (
        ["p.py"], ["p.py:A", "p.py:f"], ["p.py:A.m", "p.py:f"], "patch")
    changes = [{"file": "p.py", "changes": {"edited_modules": ["p.py:A"], "edited_entities": ["p.py:A.m"]}}]
    assert gold_for(PATCH, None, changes) == gold_from_changes(PATCH, changes)
    assert gold_for(PATCH, None, changes).functions == ["p.py:A.m"]
    files_only = gold_for(PATCH, None, None)
    assert (files_only.files, files_only.functions) == (["p.py"], [])
