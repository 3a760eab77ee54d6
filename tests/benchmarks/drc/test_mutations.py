from benchmarks.drc.harness import evaluate_many
from benchmarks.drc.mutations import break_ruby, drop_output, mutants, shift_limit, swap_layer
from benchmarks.drc.suite import load_suite, select_tasks


def test_mutated_decks_fail_for_the_right_reason(drc_runner):
    task = select_tasks(load_suite(), "width_space-00")[0]
    gold = task.spec.gold_deck
    first, second = task.spec.categories
    decks = {"gold": gold, "off_by_one": shift_limit(gold, 0, 0.005), "wrong_layer": swap_layer(gold, 0, (69, 20)),
             "missing": drop_output(gold, 1), "ruby_error": break_ruby(gold)}
    scores = dict(zip(decks, evaluate_many(task, list(decks.values()), drc_runner)))
    assert scores["gold"].success and scores["gold"].reason == "ok"
    assert scores["off_by_one"].reason == f"labels not matched: {first} (F1 {scores['off_by_one'].f1[first]:.2f})"
    assert scores["off_by_one"].f1[second] == 1.0
    assert scores["wrong_layer"].reason.startswith("labels not matched") and scores["wrong_layer"].f1[first] == 0
    assert scores["missing"].reason == f"labels not matched: {second} (F1 0.00)"
    assert scores["ruby_error"].reason.startswith(f"error on {len(task.layouts)}/{len(task.layouts)} layouts")
    assert "NoMethodError" in scores["ruby_error"].reason and scores["ruby_error"].compile_rate == 0


def test_mutants_are_named_and_distinct():
    deck = select_tasks(load_suite(), "width_space-00")[0].spec.gold_deck
    found = mutants(deck)
    assert {"limit0+5nm", "layer0", "drop1", "rename0", "weakerspace", "ruby_error"} <= {m.name for m in found}
    assert all(m.deck != deck for m in found)
