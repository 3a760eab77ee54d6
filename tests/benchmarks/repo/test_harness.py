"""Metric fidelity on LocAgent's published SWE-bench Lite outputs, and the harness on the demo repository."""

import gc
from pathlib import Path

import pytest

import benchmarks.repo.harness as harness
from benchmarks.repo.demo import add_detour, build_demo, commit_all, write_files
from benchmarks.repo.harness import (RepoBenchConfig, build_report, export_predictions, outcome_from_dict,
                                     outcome_to_dict, run_benchmark, run_side_by_side)
from benchmarks.repo.instances import Instance, load_instances, read_ids
from benchmarks.repo.localizer import Prediction, PredictionsFile
from sandboxes.telemetry import event_sink

REPO_ROOT = Path(__file__).resolve().parents[3]
LOCAGENT = REPO_ROOT.parent / "shared" / "fixtures" / "locagent"
OUTPUTS = LOCAGENT / "loc_outputs_swebench_lite_claude35.jsonl"
KS = (1, 3, 5, 10)


@pytest.fixture
def locagent_report(tmp_path):
    if not OUTPUTS.is_file():
        pytest.skip(f"LocAgent fixture not found at {LOCAGENT} (shared/ must sit beside the repository)")
    instances = load_instances(OUTPUTS, read_ids(LOCAGENT / "excluded_instances.txt"))
    localizer = PredictionsFile(OUTPUTS)
    outcomes = run_benchmark(instances, localizer, RepoBenchConfig(cache_dir=str(tmp_path), workers=4))
    return outcomes, build_report(outcomes, KS, localizer)


def test_reproduces_locagent_paper_numbers_exactly(locagent_report):
    outcomes, report = locagent_report
    summary = report.summary
    assert (summary["instances"], summary["scored"], summary["skipped"]) == (274, 274, 0)
    # LocAgent (Claude-3.5) on SWE-bench Lite, as reported in its paper
    assert (summary["file.acc@1"], summary["file.acc@3"], summary["file.acc@5"]) == (77.74, 91.97, 94.16)
    assert (summary["module.acc@5"], summary["module.acc@10"]) == (86.5, 87.59)
    assert (summary["function.acc@5"], summary["function.acc@10"]) == (73.36, 77.37)
    assert summary["file.acc_any@5"] >= summary["file.acc@5"]
    assert all(o.gold.source == "gt_file_changes" for o in outcomes)  # no checkout: LocAgent's own gold


def test_gold_files_from_the_patch_match_locagent_ground_truth(locagent_report):
    outcomes, _ = locagent_report
    for outcome in outcomes:
        assert outcome.gold.files == [c["file"] for c in outcome.instance.gt_file_changes]


def test_export_reads_back_as_the_same_scores(locagent_report, tmp_path):
    outcomes, report = locagent_report
    path = export_predictions(outcomes, tmp_path / "preds.jsonl", "locagent")
    again = run_benchmark([o.instance for o in outcomes], PredictionsFile(path), RepoBenchConfig(cache_dir=str(tmp_path)))
    assert build_report(again, KS, PredictionsFile(path)).summary["file.acc@5"] == report.summary["file.acc@5"]


class Fixed:
    """A localiser that always answers the same files, and records the order it was asked in."""

    name, policy, needs_checkout = "fixed", "fixed answers", True

    def __init__(self, files=("shop/models.py", "shop/pricing.py")):
        self.files, self.seen = list(files), []

    def localize(self, instance, checkout):
        assert checkout.commit == instance.base_commit and (checkout.clone / "HEAD").is_file()
        self.seen.append(instance.instance_id)
        return Prediction(files=self.files)


def test_demo_gold_from_code_parallel_runs_and_missing_commits(tmp_path):
    repo, rows = build_demo(tmp_path)
    instances = [Instance.from_row(r) for r in rows] + [Instance.from_row({**rows[0], "instance_id": "gone",
                                                                             "base_commit": "f" * 40})]
    config = RepoBenchConfig(cache_dir=str(tmp_path / "cache"), workers=3, ks=[1, 2])
    events = []
    with event_sink(lambda kind, fields: events.append((kind, fields["instance_id"]))):
        outcomes = run_benchmark(instances, Fixed(), config)
    assert sorted(i for _, i in events) == sorted(i.instance_id for i in instances)  # workers report too
    assert [o.instance.instance_id for o in outcomes] == [i.instance_id for i in instances]
    assert outcomes[1].gold.functions == ["shop/models.py:Item.price"] and outcomes[1].gold.source == "patch"
    assert "missing" in outcomes[3].skipped
    summary = build_report(outcomes, (1, 2), Fixed()).summary
    assert (summary["scored"], summary["skipped"]) == (3, 1)
    assert summary["file.acc@1"] == 66.67 and summary["file.acc@2"] == 100.0
    assert summary["function.n"] == 3 and summary["function.acc@1"] == 0.0
    record = outcome_to_dict(outcomes[0])
    assert outcome_to_dict(outcome_from_dict(record, instances[0])) == record


def test_instances_run_in_commit_order_and_side_by_side(tmp_path):
    repo, rows = build_demo(tmp_path)
    write_files(repo, {"shop/extra.py": "X = 1\n"})
    later = commit_all(repo, "later", date="2024-05-01T00:00:00")
    rows = [{**rows[0], "instance_id": "late", "base_commit": later}] + rows
    instances = [Instance.from_row(r) for r in rows]
    first, second = Fixed(), Fixed(["shop/pricing.py"])
    config = RepoBenchConfig(cache_dir=str(tmp_path / "cache"))
    results = run_side_by_side(instances, [first, second], config)
    assert first.seen == second.seen == ["demo__shop-1", "demo__shop-2", "demo__shop-3", "late"]
    assert [[o.instance.instance_id for o in pair] for pair in results] == [[i.instance_id] * 2 for i in instances]
    assert [o.scores["file"]["acc@1"] for o in results[1]] == [0.0, 1.0]  # shop-1 is fixed in pricing.py
    assert results[1][0].gold is results[1][1].gold


def test_a_repository_is_visited_along_nearby_commits_not_commit_time(tmp_path):
    repo, rows = build_demo(tmp_path)
    rows = add_detour(repo, rows) + [{**rows[0], "instance_id": "gone", "base_commit": "f" * 40}]
    seen = Fixed()
    run_benchmark([Instance.from_row(r) for r in rows], seen, RepoBenchConfig(cache_dir=str(tmp_path / "cache")))
    # far, base, near changes 3 + 1 files (time order 3 + 4); it ties with near, base, far and starts earlier
    assert seen.seen == ["far", "demo__shop-1", "demo__shop-2", "demo__shop-3", "near"]  # "gone" is skipped


def test_the_gold_files_are_parsed_with_the_cyclic_collector_paused(tmp_path, monkeypatch):
    collector = []
    real_gold_for = harness.gold_for

    def recording(*args, **kwargs):
        collector.append(gc.isenabled())
        return real_gold_for(*args, **kwargs)

    monkeypatch.setattr(harness, "gold_for", recording)
    repo, rows = build_demo(tmp_path)
    gc.enable()
    outcomes = run_benchmark([Instance.from_row(rows[0])], Fixed(), RepoBenchConfig(cache_dir=str(tmp_path / "cache")))
    assert collector == [False] and gc.isenabled() and outcomes[0].gold.files
