import json

import pytest

from benchmarks.resolve.instances import Instance
from benchmarks.resolve import specs as spec_module
from benchmarks.resolve.specs import END_MARK, START_MARK, EnvSpec, eval_script, load_specs, spec_for
from sandboxes.errors import UserError

TEST_PATCH = ("diff --git a/tests/test_x.py b/tests/test_x.py\n--- a/tests/test_x.py\n+++ b/tests/test_x.py\n"
              "@@ -1 +1,2 @@\n a = 1\n+b = 2\n"
              "diff --git a/data/x.json b/data/x.json\n--- a/data/x.json\n+++ b/data/x.json\n@@ -1 +1 @@\n-1\n+2\n")
ROW = {"instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc1234", "patch": "P", "test_patch": TEST_PATCH,
       "FAIL_TO_PASS": [], "PASS_TO_PASS": [], "version": "1.0"}


def test_a_swebench_4_style_specs_file_and_its_conversions(tmp_path):
    path = tmp_path / "specs.json"
    path.write_text(json.dumps({"o/r": {"1.0": {"python": 3.9, "pre_install": "apt-get install x",
                                                "docker_specs": {}, "test_cmd": "pytest -rA"}}}))
    spec = load_specs(path)["o/r"]["1.0"]
    assert (spec.python, spec.pre_install) == ("3.9", ["apt-get install x"])
    assert "pre_install needs system packages" in spec.unmet()
    path.write_text(json.dumps({"o/r": {"1.0": {"python": ["x"]}}}))
    with pytest.raises(UserError, match="bad spec"):
        load_specs(path)


def test_the_spec_of_an_instance_and_the_row_fields_that_replace_it():
    instance = Instance.from_row({**ROW, "log_parser": "parse_log_django"})
    assert spec_for(instance, {"o/r": {"1.0": EnvSpec()}}).log_parser == "parse_log_django"
    with pytest.raises(UserError, match="no environment spec for o/r version 1.0"):
        spec_for(instance, {})


def test_the_test_command_from_the_test_patch_or_a_swebench_5_eval_script():
    instance = Instance.from_row(ROW)
    assert spec_module.test_command(instance, EnvSpec()) == "pytest -rA tests/test_x.py"  # the .json file is no test module
    script = f"cd /testbed\n: '{START_MARK}'\npytest -rA tests/test_y.py\n: '{END_MARK}'\n"
    assert spec_module.test_command(Instance.from_row({**ROW, "eval_script": script}), EnvSpec()) == "pytest -rA tests/test_y.py"
    lines = eval_script(instance, EnvSpec(eval_commands=["export A=1"]), "/env/bin").splitlines()
    assert lines.index("export A=1") < lines.index(f"echo '{START_MARK}'") < lines.index("pytest -rA tests/test_x.py")
