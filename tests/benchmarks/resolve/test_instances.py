import json

import pytest

from benchmarks.resolve.instances import (Instance, baseline_predictions, load_instances, load_predictions,
                                          write_predictions)
from sandboxes.errors import UserError

ROW = {"instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc1234", "patch": "P", "test_patch": "T",
       "FAIL_TO_PASS": '["t.py::test_a"]', "PASS_TO_PASS": ["t.py::test_b"], "version": 1.0}


def test_rows_with_fields_at_the_top_or_under_meta_data():
    top = Instance.from_row(ROW)
    nested = Instance.from_row({"instance_id": "o__r-1", "meta_data": {k: v for k, v in ROW.items()
                                                                       if k != "instance_id"}})
    for instance in (top, nested):
        assert (instance.fail_to_pass, instance.pass_to_pass, instance.version) == (["t.py::test_a"],
                                                                                    ["t.py::test_b"], "1.0")


def test_bad_rows_name_the_instance_and_the_field(tmp_path):
    with pytest.raises(UserError, match="instance o__r-1: missing base_commit"):
        Instance.from_row({**ROW, "base_commit": ""})
    with pytest.raises(UserError, match="FAIL_TO_PASS is not a JSON list"):
        Instance.from_row({**ROW, "FAIL_TO_PASS": "t.py::test_a"})
    path = tmp_path / "i.jsonl"
    path.write_text(json.dumps(ROW) + "\n" + json.dumps(ROW) + "\n")
    with pytest.raises(UserError, match="appears twice"):
        load_instances(path)


def test_predictions_as_jsonl_list_or_keyed_object_and_the_baselines(tmp_path):
    rows = [{"instance_id": "a", "model_name_or_path": "m", "model_patch": "diff"},
            {"instance_id": "b", "model_name_or_path": "m", "model_patch": None}]
    written = write_predictions([p for p in load_predictions(_jsonl(tmp_path, rows)).values()], tmp_path / "w.jsonl")
    keyed = tmp_path / "k.json"
    keyed.write_text(json.dumps({r["instance_id"]: {k: v for k, v in r.items() if k != "instance_id"} for r in rows}))
    listed = tmp_path / "l.json"
    listed.write_text(json.dumps(rows))
    for path in (written, keyed, listed):
        loaded = load_predictions(path)
        assert loaded["a"].model_patch == "diff" and loaded["b"].empty
    instance = Instance.from_row(ROW)
    assert baseline_predictions("gold", [instance])["o__r-1"].model_patch == "P"
    assert baseline_predictions("empty", [instance])["o__r-1"].empty
    with pytest.raises(UserError, match="needs instance_id and model_patch"):
        load_predictions(_jsonl(tmp_path, [{"instance_id": "a"}]))


def _jsonl(tmp_path, rows):
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path
