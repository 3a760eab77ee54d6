from agents.runtime.models.scripted import ScriptedModel
from agents.splittester.llm import NO_DECK, ModelPolicy
from benchmarks.drc.suite import load_suite, select_tasks

SPEC = select_tasks(load_suite(), "width_space-00")[0].spec
DECK = "```ruby\nsource($input)\nreport('t', $output)\n```"


def test_unusable_replies_become_failing_decks_after_one_reask():
    model = ScriptedModel([DECK, "no deck", "still none"])
    decks = ModelPolicy(model, sandbox=None).synthesize(SPEC, 2)
    assert decks[0].startswith("source($input)") and decks[1] == NO_DECK
    assert model.calls[0]["options"]["temperature"] == 0.8


def test_blind_judge_sees_distinct_decks_only_and_falls_back_to_the_first():
    model = ScriptedModel(["ANSWER: 2", "nonsense", "nonsense"])
    policy = ModelPolicy(model, sandbox=None)
    assert policy.blind_judge(SPEC, ["a", "a", "b"]) == 2
    assert "Candidate 3" not in model.calls[0]["messages"][-1]["content"]
    assert policy.blind_judge(SPEC, ["a", "b"]) == 0
