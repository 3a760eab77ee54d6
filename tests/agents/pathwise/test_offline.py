"""The offline policy mutates parameters and expressions and stays valid Python."""

import ast
import random

from agents.pathwise.offline import NAME, OfflineRoles, mutate
from benchmarks.ahd.registry import PROBLEMS
from memory.entailment.graph import HeuristicNode


def test_mutations_change_the_code_and_keep_the_function():
    for problem in PROBLEMS.values():
        for code in problem.baselines.values():
            changed = {mutate(code, problem.function_name, random.Random(seed))[0] for seed in range(6)}
            assert changed - {code}, problem.name
            for new in changed:
                tree = ast.parse(new)
                assert any(isinstance(n, ast.FunctionDef) and n.name == problem.function_name for n in tree.body)


def test_offline_roles_follow_the_best_parent_and_name_themselves():
    roles = OfflineRoles()
    problem = PROBLEMS["kp_construct"]
    nodes = [HeuristicNode("a", problem.seed_code, "seed", score=1.0), HeuristicNode("b", "x", "bad", failure="crash")]
    actions = roles.propose(problem, nodes, 2, "")
    assert [a.parents for a in actions] == [["a"], ["a"]]
    candidate = roles.rollout(problem, [nodes[0]], actions[0].directive, "", True, seed=3)
    assert candidate.code != problem.seed_code and "seed (" in candidate.description
    assert roles.name == NAME == "offline policy: parameter/expression mutation"
    assert roles.policy_advice(problem, []) == roles.world_model_advice(problem, ("", ""), ("", "")) == ""
