"""The issue's must-show: with near-miss candidates that "best score on generated tests" cannot tell
apart, SplitTester (scripted model, real sandbox and KLayout) picks the correct deck."""

import re

from agents.runtime.models.scripted import ScriptedModel
from agents.splittester.config import SplitTesterConfig
from agents.splittester.llm import ModelPolicy
from agents.splittester.pipeline import solve_task
from benchmarks.drc.mutations import break_ruby, shift_limit
from benchmarks.drc.suite import load_suite, select_tasks

SCRIPT_HEAD = '''import json, pathlib
import klayout.db as db
out = pathlib.Path("tests"); out.mkdir(exist_ok=True)
expected = {}
def save(name, verdict, boxes=(), polygons=()):
    layout = db.Layout(); layout.dbu = 0.001
    top = layout.create_cell("TOP"); met1 = layout.layer(68, 20)
    for box in boxes: top.shapes(met1).insert(db.Box(*box))
    for polygon in polygons: top.shapes(met1).insert(polygon)
    layout.write(str(out / name)); expected[name] = verdict
'''
INITIAL_TESTS = SCRIPT_HEAD + '''
save("width_at_limit.gds", {"m1.1": False, "m1.2": False}, [(0, 0, 140, 2000)])
save("width_below.gds", {"m1.1": True, "m1.2": False}, [(0, 0, 130, 2000)])
save("space_at_limit.gds", {"m1.1": False, "m1.2": False}, [(0, 0, 500, 500), (640, 0, 1140, 500)])
save("space_below.gds", {"m1.1": False, "m1.2": True}, [(0, 0, 500, 500), (620, 0, 1120, 500)])
(out / "expected.json").write_text(json.dumps(expected))
'''
SPLIT_TEST = SCRIPT_HEAD + '''
ring = db.Polygon(db.Box(0, 0, 1000, 1000)); ring.insert_hole(db.Box(450, 450, 550, 550))
save("ring_small_hole.gds", {"m1.1": False, "m1.2": True}, polygons=[ring])
(out / "expected.json").write_text(json.dumps(expected))
'''


def fenced(language: str, body: str) -> str:
    return f"Here it is.\n```{language}\n{body}```\n"


def evidence_judge(messages) -> str:
    """A judge that reads the evidence: picks the candidate whose verdicts equal the expected ones everywhere."""
    prompt = messages[-1]["content"]
    layouts = re.findall(r"\(expected violated: (\[.*?\])\):.*?((?:  candidate \d+ reports violated: \[.*?\]\n?)+)",
                         prompt, re.DOTALL)
    assert layouts, "the judge must be shown the layouts on which the finalists disagree"
    wrong = set()
    for expected, said in layouts:
        for number, verdict in re.findall(r"candidate (\d+) reports violated: (\[.*?\])", said):
            if verdict != expected:
                wrong.add(int(number))
    right = min(set(range(1, 4)) - wrong)
    return f"Candidate {right} matches every expected verdict.\nANSWER: {right}"


def test_splittester_picks_the_correct_deck_where_best_score_ties(drc_runner):
    task = select_tasks(load_suite(), "width_space-00")[0]
    gold = task.spec.gold_deck
    near_miss = gold.replace(".space(", ".isolated(")  # misses spacing inside one polygon (holes, notches)
    decks = [near_miss, gold, near_miss, gold, shift_limit(gold, 0, 0.005), break_ruby(gold)]
    model = ScriptedModel([fenced("ruby", deck) for deck in decks] +
                          [fenced("python", INITIAL_TESTS), "ANSWER: 1", fenced("python", SPLIT_TEST), evidence_judge])
    policy = ModelPolicy(model, drc_runner.sandbox, test_layouts=4)
    row = solve_task(task, policy, drc_runner, SplitTesterConfig(n=len(decks), rounds=8))

    assert model.remaining == 0
    assert row["tests"] == 4 and row["valid"] == 5
    assert row["best_score_ties"] == 4  # the two gold and two near-miss copies score the same
    assert row["oracle"] and row["pass@1"] == round(2 / 6, 4)
    assert row["splittester"] is True
    assert row["splits"] == 1 and row["stop"] == "the best cluster holds one distinct deck"
    assert row["llm_judge_no_exec"] is False  # the blind judge took the first (near-miss) deck
    judge_prompt = model.calls[-1]["messages"][-1]["content"]
    assert "ring_small_hole.gds" in judge_prompt and " hole " in judge_prompt
