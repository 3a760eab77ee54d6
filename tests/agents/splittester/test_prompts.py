from agents.splittester import prompts
from benchmarks.drc.suite import load_suite, select_tasks

SPEC = select_tasks(load_suite(), "enclosure-00")[0].spec


def test_synthesis_prompt_states_conventions_categories_and_units():
    text = prompts.synthesis_messages(SPEC, with_reference=True)[-1]["content"]
    for needed in ["source($input)", "report(", "$output", "0.14.um", "exactly the category names", "DRC reference"]:
        assert needed in text
    for rule in SPEC.rules:
        assert f'"{rule.category}"' in text
    assert "DRC reference" not in prompts.synthesis_messages(SPEC, with_reference=False)[-1]["content"]


def test_split_and_judge_prompts_show_the_decks():
    split = prompts.split_messages(SPEC, ["deck A", "deck B"], "- t1: expected violated ['x']")[-1]["content"]
    assert "Deck 1:" in split and "deck B" in split and "exactly one layout" in split and "expected.json" in split
    judge = prompts.judge_messages(SPEC, ["deck A", "deck B"], "evidence here")[-1]["content"]
    assert "Candidate 2:" in judge and "evidence here" in judge and "ANSWER" in judge
    assert "Without running" in prompts.blind_judge_messages(SPEC, ["deck A"])[-1]["content"]
