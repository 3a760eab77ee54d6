import json

from agents.rpg.build import build_rpg
from agents.rpg.lift_model import (FILE_PROMPT, PLACE_PROMPT, UNIT_PROMPT, ModelLiftConfig, ModelLifter, pack,
                                   parse_json_object)
from agents.rpg.source import read_directory
from agents.runtime.models.scripted import ScriptedModel


def reply_features(messages):
    """Features for every unit id in the prompt except round_money (to exercise the fallback)."""
    ids = [line[4:].split(" ")[0] for line in messages[-1]["content"].splitlines() if line.startswith("### ")]
    members = [line[2:].split(":")[0] + ":" + line[2:].split(":")[1] for line in messages[-1]["content"].splitlines()
               if line.startswith("- ")]
    return "```json\n" + json.dumps({i: [f"model feature of {i.split(':')[-1]}"] for i in ids + members
                                     if not i.endswith("round_money")}) + "\n```"


def reply_summaries(messages):
    paths = [line[4:] for line in messages[-1]["content"].splitlines() if line.startswith("### ")]
    return json.dumps({p: f"summary of {p}" for p in paths})


def reply_places(messages):
    paths = [line[2:].split(":")[0] for line in messages[-1]["content"].splitlines() if line.startswith("- ")]
    return json.dumps({p: ["commerce", "pricing" if "pric" in p else "cart"] for p in paths if "util" not in p})


def reply(messages):
    prompt = messages[-1]["content"]
    for prefix, answer in ((UNIT_PROMPT, reply_features), (FILE_PROMPT, reply_summaries), (PLACE_PROMPT, reply_places)):
        if prompt.startswith(prefix[:40]):
            return answer(messages)
    raise AssertionError(prompt)


def test_model_lifting_in_budgeted_batches_with_offline_fallback(demo):
    repo, _ = demo
    listing = read_directory(repo, 10**6)
    model = ScriptedModel([reply] * 100)
    lifter = ModelLifter(model, lambda p: listing.files[p].decode().splitlines(), ModelLiftConfig(batch_tokens=120))
    rpg, _ = build_rpg(listing, lifter)
    unit_requests = sum(call["messages"][-1]["content"].startswith(UNIT_PROMPT) for call in model.calls)
    assert unit_requests > 2 and lifter.counts["requests"] == len(model.calls)  # batched by the budget
    for call in model.calls:
        body = call["messages"][-1]["content"].split("\n\n", 1)[1]
        assert "\n\n### " not in body or len(body) // 4 <= 120 + 5  # one oversized block, or within budget
    assert rpg.node("shop/cart.py:Cart.total").features == ["model feature of cart.total"]
    assert rpg.node("shop/util.py:round_money").features[0] == "handle round money"  # offline fallback
    assert lifter.counts["fallback_units"] == 1
    assert rpg.node("shop/cart.py").summary == "summary of shop/cart.py"
    assert rpg.parent("shop/pricing.py") == "category:commerce/pricing"
    assert rpg.parent("shop/util.py") == "area:shop" and lifter.counts["fallback_placements"] == 1
    assert rpg.meta["lifter"] == "llm lifter: scripted"


def test_pack_respects_the_budget_and_parse_accepts_fenced_json():
    batches = pack([("a", "x" * 40), ("b", "x" * 40), ("c", "x" * 400)], budget_tokens=25)
    assert [[k for k, _ in batch] for batch in batches] == [["a", "b"], ["c"]]
    assert parse_json_object('```json\n{"a": 1}\n```') == {"a": 1}


def test_unusable_replies_fall_back_without_losing_the_build(demo):
    repo, _ = demo
    listing = read_directory(repo, 10**6)
    lifter = ModelLifter(ScriptedModel(["not json"] * 100), lambda p: listing.files[p].decode().splitlines())
    rpg, _ = build_rpg(listing, lifter)
    assert lifter.counts["unusable_replies"] == 3  # units, files, placement: each re-asked once, then offline
    assert rpg.node("shop/pricing.py:apply_discount").features[0] == "apply discount"
    assert rpg.parent("shop/pricing.py") == "area:shop"
