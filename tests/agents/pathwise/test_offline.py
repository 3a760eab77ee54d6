"""The offline policy plays every PathWise role as a GP search over expression trees."""

from agents.pathwise.baselines import OPERATORS as EOH_OPERATORS
from agents.pathwise.context import SEED_DIRECTIVE
from agents.pathwise.gp import tree as trees
from agents.pathwise.gp.problems import grammar_for
from agents.pathwise.gp.variation import NEW, OPERATIONS
from agents.pathwise.offline import NAME, OfflineRoles, directive, operation_of
from agents.pathwise.prompts import Action
from benchmarks.ahd.registry import get_problem
from memory.entailment.graph import HeuristicNode

PROBLEM = get_problem("bpp_online")
GRAMMAR = grammar_for("bpp_online")


def nodes():
    return [HeuristicNode("best", PROBLEM.baselines["best_fit"], "best fit", score=4.0),
            HeuristicNode("first", PROBLEM.baselines["first_fit"], "first fit", score=4.4),
            HeuristicNode("mixed", GRAMMAR.render(("sub", ("neg", "g"), "e")), "gp", score=4.2),
            HeuristicNode("broken", "def priority(item, bins_remain_cap):\n    1/0\n", "bad", failure="crash")]


def test_the_policy_names_gp_operators_and_picks_scored_parents_with_trees():
    actions = OfflineRoles().propose(PROBLEM, nodes(), 12, "", seed=5)
    assert actions == OfflineRoles().propose(PROBLEM, nodes(), 12, "", seed=5)  # seeded
    assert {operation_of(a.directive, len(a.parents)) for a in actions} <= set(OPERATIONS)
    assert all(set(a.parents) <= {"best", "first", "mixed"} for a in actions)
    assert any(len(a.parents) == 2 and len(set(a.parents)) == 2 for a in actions)


def test_the_policy_follows_the_critics_advice():
    advice = "improved on their parents: crossover\nno better than their parents: constant, semantic, subtree, " \
             "point, hoist\navoid parents (every child failed): best, mixed"
    actions = OfflineRoles().propose(PROBLEM, nodes(), 40, advice, seed=1)
    chosen = [operation_of(a.directive, len(a.parents)) for a in actions]
    assert chosen.count("crossover") > len(chosen) / 2
    assert {p for a in actions for p in a.parents} == {"first"}


def test_without_a_tree_to_build_on_the_policy_draws_new_trees():
    foreign = [HeuristicNode("x", "def priority(item, bins_remain_cap):\n    return -bins_remain_cap\n", "x", score=1.0)]
    actions = OfflineRoles().propose(PROBLEM, foreign, 2, "", seed=0)
    assert [operation_of(a.directive, len(a.parents)) for a in actions] == [NEW, NEW]


def test_rollouts_apply_the_operator_and_render_a_readable_heuristic():
    roles, parents = OfflineRoles(), nodes()[:2]
    candidate = roles.rollout(PROBLEM, parents, directive("crossover"), "", False, seed=2)
    tree = GRAMMAR.tree_of(candidate.code)
    assert tree is not None and tree not in (("neg", "g"), ("neg", "i"))
    assert candidate.description.startswith("subtree crossover") and trees.text(tree) in candidate.description
    perturbed = roles.rollout(PROBLEM, parents[:1], directive("constant"), "", True, seed=2)
    assert "perturbation:" in perturbed.description and GRAMMAR.tree_of(perturbed.code) is not None


def test_seed_and_eoh_directives_map_to_gp_operators():
    assert operation_of(SEED_DIRECTIVE, 1) == NEW
    assert [operation_of(EOH_OPERATORS[k][1], 2) for k in ("e1", "e2", "m1", "m2")] == \
        [NEW, "crossover", "subtree", "constant"]
    assert operation_of("blend the two rules", 2) == "crossover" and operation_of("sharpen it", 1) == "subtree"
    assert operation_of(directive("hoist"), 1) == "hoist"


def test_critics_report_which_operators_improved_and_which_primitives_matter():
    roles = OfflineRoles()
    roles.propose(PROBLEM, nodes(), 1, "", seed=0)
    outcomes = [(Action(["best", "first"], directive("crossover")), 3.9),
                (Action(["first"], directive("hoist")), 4.5),
                (Action(["mixed"], directive("point")), None)]
    said = roles.policy_advice(PROBLEM, outcomes)
    assert "improved on their parents: crossover" in said and "no better than their parents: hoist" in said
    assert "avoid parents (every child failed): mixed" in said
    best, worst = GRAMMAR.render(("sub", ("neg", "g"), "e")), PROBLEM.baselines["first_fit"]
    assert roles.world_model_advice(PROBLEM, (best, ""), (worst, "")) == \
        "favour primitives: e, g, sub\navoid primitives: i"
    assert roles.world_model_advice(PROBLEM, ("x = 1", ""), (worst, "")) == ""


def test_the_policy_is_named_as_the_offline_policy():
    assert OfflineRoles().name == NAME == "offline policy: genetic programming over expression trees"
