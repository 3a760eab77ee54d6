"""The offline critics' advice is written as readable lines and read back by the policy and world model."""

from agents.pathwise.gp import advice


def test_policy_advice_round_trip_and_weights():
    text = advice.policy_advice(["crossover", "crossover"], ["hoist"], ["r1s0a1"])
    assert "improved on their parents: crossover" in text
    read = advice.read_policy_advice(text)
    assert read.improved == {"crossover"} and read.not_improved == {"hoist"} and read.avoid_parents == {"r1s0a1"}
    assert read.operator_weight("crossover") > read.operator_weight("point") > read.operator_weight("hoist")


def test_world_model_advice_names_what_sets_best_apart_from_worst():
    text = advice.world_model_advice({"neg", "g", "e"}, {"neg", "i"})
    weights = advice.primitive_weights(text)
    assert weights == {"g": advice.FAVOURED_WEIGHT, "e": advice.FAVOURED_WEIGHT, "i": advice.AVOIDED_WEIGHT}


def test_unknown_advice_is_ignored():
    text = "POLICY-ADVICE: prefer parents with low gaps\nno colon here"
    assert advice.primitive_weights(text) == {}
    read = advice.read_policy_advice(text)
    assert not (read.improved or read.not_improved or read.avoid_parents)
    assert advice.policy_advice([], [], []) == ""
