from agents.runtime.models.scripted import ScriptedModel
from agents.splittester.testgen import generate_tests

GOOD = '''```python
import json, pathlib
import klayout.db as db
out = pathlib.Path("tests"); out.mkdir(exist_ok=True)
layout = db.Layout(); top = layout.create_cell("TOP")
top.shapes(layout.layer(68, 20)).insert(db.Box(0, 0, 100, 1000))
layout.write(str(out / "a.gds"))
(out / "expected.json").write_text(json.dumps({"a.gds": {"m1.1": True}}))
```'''


def test_failing_scripts_are_retried_with_their_errors(drc_runner):
    model = ScriptedModel(["no code here", "```python\nraise RuntimeError('bad geometry')\n```", GOOD])
    tests = generate_tests(model, [{"role": "user", "content": "go"}], drc_runner.sandbox, ["m1.1", "m1.2"],
                           retries=2, prefix="gen-")
    assert [(t.name, t.expected) for t in tests] == [("gen-a.gds", {"m1.1": True, "m1.2": False})]
    assert tests[0].gds[:4] == b"\x00\x06\x00\x02"
    assert "bad geometry" in model.calls[2]["messages"][-1]["content"]


def test_gives_up_after_the_retries(drc_runner):
    unknown = GOOD.replace('"m1.1": True', '"zz": True')
    model = ScriptedModel([unknown, unknown])
    assert generate_tests(model, [{"role": "user", "content": "go"}], drc_runner.sandbox, ["m1.1"], retries=1) == []
    assert "unknown categories" in model.calls[1]["messages"][-1]["content"]
