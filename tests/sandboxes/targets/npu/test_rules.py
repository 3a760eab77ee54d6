"""npu static rules: no reaching into simulator internals."""

import ast

from sandboxes.targets.npu.rules import internal_names_rule, private_access_rule


def test_private_attributes_and_internal_names_are_flagged():
    tree = ast.parse("def f(t):\n    t._raw[:] = 0\n    return t.__class__\nfrom sandboxes.targets.npu.runtime import GmAddr\n")
    assert [v.line for v in private_access_rule(tree)] == [2]
    assert [v.rule for v in internal_names_rule(tree)] == ["npu_internals"]


def test_language_code_passes():
    tree = ast.parse("from sandboxes.targets.npu.lang import *\nx = GlobalTensor()\nx.SetGlobalBuffer(a)\n")
    assert private_access_rule(tree) == [] and internal_names_rule(tree) == []
