import json

from benchmarks.repo.instances import Instance
from benchmarks.repo.localizer import Prediction, PredictionsFile

ROW = {"instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc1234", "problem_statement": "", "patch": "p"}


def test_prediction_from_entities_derives_modules_and_files():
    prediction = Prediction.from_entities(["a.py:C.m", "b.py:f", "a.py:C.n"], files=["c.py"])
    assert prediction.modules == ["a.py:C", "b.py:f"] and prediction.files == ["c.py", "a.py", "b.py"]
    assert prediction.functions == ["a.py:C.m", "b.py:f", "a.py:C.n"]


def test_predictions_file_reads_locagent_and_swebench_formats(tmp_path):
    path = tmp_path / "preds.jsonl"
    rows = [{"instance_id": "o__r-1", "found_files": ["a.py"], "found_modules": ["a.py:C"],
             "found_entities": ["a.py:C.m"]},
            {"instance_id": "o__r-2", "model_name_or_path": "m", "model_patch": "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    localizer = PredictionsFile(path)
    first = localizer.localize(Instance.from_row(ROW), None)
    assert (first.files, first.modules, first.functions) == (["a.py"], ["a.py:C"], ["a.py:C.m"])
    second = localizer.localize(Instance.from_row({**ROW, "instance_id": "o__r-2"}), None)
    assert second.files == ["x.py"] and second.note == "files from model_patch"
    assert localizer.localize(Instance.from_row({**ROW, "instance_id": "o__r-9"}), None).note.startswith("no prediction")
