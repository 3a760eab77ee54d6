import random

from agents.splittester.offline import OfflinePolicy, parse_checks
from benchmarks.drc.suite import load_suite, select_tasks
from benchmarks.drc.tasks import build_deck


def test_parsed_spec_rebuilds_every_gold_deck():
    for task in load_suite():
        spec = task.spec
        assert build_deck(spec.id, spec.title, parse_checks(spec)) == spec.gold_deck, spec.id


def test_offline_candidates_and_geometry_tests():
    task = select_tasks(load_suite(), "enclosure-00")[0]
    policy = OfflinePolicy(runner=None, rng=random.Random(0))
    decks = policy.synthesize(task.spec, 6)
    assert len(decks) == 6 and task.spec.gold_deck in decks
    tests = policy.initial_tests(task.spec)
    assert not any(tests[0].expected.values())
    assert all(sum(test.expected.values()) == 1 for test in tests[1:])
    assert {test.origin for test in tests} == {"geometry"}
    assert policy.blind_judge(task.spec, decks) is None
