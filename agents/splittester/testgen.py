"""Self-generated tests: model-written Python layout scripts run in the sandbox, retried with their errors."""

from __future__ import annotations

import base64
import json
import sys
from dataclasses import dataclass

from agents.runtime.models.base import ChatModel
from agents.runtime.models.serialize import assistant_message
from agents.splittester.parsing import parse_script
from sandboxes.base import Limits
from sandboxes.telemetry import emit

WRAPPER = '''
import base64, json, pathlib, runpy
runpy.run_path("layout_script.py", run_name="__main__")
folder = pathlib.Path("tests")
expected = json.loads((folder / "expected.json").read_text())
bundle = {}
for name, verdicts in expected.items():
    path = folder / name
    if not path.is_file():
        raise SystemExit(f"tests/expected.json names {name}, but tests/{name} was not written")
    bundle[name] = {"expected": verdicts, "gds": base64.b64encode(path.read_bytes()).decode()}
pathlib.Path("bundle.json").write_text(json.dumps(bundle))
'''
SCRIPT_LIMITS = Limits(wall_s=60, cpu_s=60, memory_mb=1024, output_bytes=200_000, disk_mb=64)


class ScriptError(Exception):
    """A layout script that did not produce usable tests; the message is shown to the model."""


@dataclass
class GeneratedTest:
    """A test layout with the verdict per category its author expects (True = violated)."""

    name: str
    gds: bytes
    expected: dict[str, bool]
    origin: str = "model"


def run_layout_script(script: str, sandbox, categories: list[str], prefix: str = "") -> list[GeneratedTest]:
    """Run a layout script in the sandbox and return its tests; ScriptError explains what went wrong."""
    result = sandbox.run([sys.executable, "wrapper.py"], limits=SCRIPT_LIMITS, collect=["bundle.json"],
                         files={"layout_script.py": script.encode(), "wrapper.py": WRAPPER.encode()})
    if result.timed_out or result.oom_killed:
        raise ScriptError("the script was killed at the sandbox's time or memory limit")
    if result.returncode != 0 or "bundle.json" not in result.files:
        tail = "\n".join((result.stderr or result.stdout).strip().splitlines()[-8:])
        raise ScriptError(f"the script failed (exit code {result.returncode}):\n{tail}")
    bundle = json.loads(result.files["bundle.json"])
    if not bundle:
        raise ScriptError("tests/expected.json lists no layouts")
    return [GeneratedTest(prefix + name, base64.b64decode(item["gds"]), _verdicts(name, item["expected"], categories))
            for name, item in bundle.items()]


def _verdicts(name: str, expected, categories: list[str]) -> dict[str, bool]:
    if not isinstance(expected, dict):
        raise ScriptError(f"expected verdicts of {name} must be an object {{category: true|false}}")
    unknown = set(expected) - set(categories)
    if unknown:
        raise ScriptError(f"expected verdicts of {name} name unknown categories {sorted(unknown)}")
    return {category: bool(expected.get(category, False)) for category in categories}


def generate_tests(model: ChatModel, messages: list[dict], sandbox, categories: list[str], retries: int,
                   prefix: str = "") -> list[GeneratedTest]:
    """Ask for a layout script, run it, and on failure re-ask with the error, ``retries`` times at most."""
    conversation = list(messages)
    for attempt in range(retries + 1):
        response = model.complete(conversation)
        try:
            return run_layout_script(parse_script(response.content), sandbox, categories, prefix)
        except (ValueError, ScriptError, json.JSONDecodeError) as error:
            emit("splittester.script_error", attempt=attempt, error=str(error)[:500])
            conversation += [assistant_message(response),
                             {"role": "user", "content": f"That did not work: {error}\nReply with the whole fixed "
                                                         "script in one ```python block."}]
    return []
