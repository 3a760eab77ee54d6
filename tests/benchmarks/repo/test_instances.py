import json

import pytest

from benchmarks.repo.instances import Instance, load_instances, read_ids
from sandboxes.errors import UserError

ROW = {"instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc1234", "problem_statement": "bug", "patch": "p"}


def test_json_jsonl_and_locagent_rows(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps([ROW]))
    (tmp_path / "b.jsonl").write_text(json.dumps(ROW) + "\n\n" + json.dumps({**ROW, "instance_id": "o__r-2"}) + "\n")
    nested = {"instance_id": "o__r-3", "found_files": [], "meta_data": {**ROW, "instance_id": "ignored",
                                                                        "gt_file_changes": [{"file": "x"}]}}
    (tmp_path / "c.jsonl").write_text(json.dumps(nested) + "\n")
    assert [i.instance_id for i in load_instances(tmp_path / "a.json")] == ["o__r-1"]
    assert [i.instance_id for i in load_instances(tmp_path / "b.jsonl", exclude={"o__r-1"})] == ["o__r-2"]
    [locagent] = load_instances(tmp_path / "c.jsonl")
    assert (locagent.instance_id, locagent.repo, locagent.gt_file_changes) == ("o__r-3", "o/r", [{"file": "x"}])


def test_bad_input_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="missing base_commit"):
        Instance.from_row({**ROW, "base_commit": ""})
    with pytest.raises(UserError, match="not a git commit id"):  # it would reach git's command line as an option
        Instance.from_row({**ROW, "base_commit": "--output=/tmp/written_by_an_instance_file"})
    with pytest.raises(UserError, match="starts with '-'"):
        Instance.from_row({**ROW, "repo": "--upload-pack=touch x"})
    (tmp_path / "bad.json").write_text("[{")
    with pytest.raises(UserError, match="not valid JSON"):
        load_instances(tmp_path / "bad.json")
    with pytest.raises(UserError):
        load_instances(tmp_path / "none.json")
    (tmp_path / "ids.txt").write_text("# comment\na\n\nb\n")
    assert read_ids(tmp_path / "ids.txt") == {"a", "b"}
