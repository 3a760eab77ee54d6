"""What an instance's environment and test run need: its spec (SWE-bench's per-repository keys) and test command.

SWE-bench up to 4.x shipped those specs in the package (``MAP_REPO_VERSION_TO_SPECS``: python, packages,
pip_packages, pre_install, install, eval_commands, test_cmd). swebench 5 no longer does: each instance row
carries its own ``eval_script``, ``log_parser`` and ``eval_type``, and its Dockerfile lives in a task
repository. So a spec comes from the row's ``spec`` object or from a specs file in the 4.x map's shape
(``{repo: {version: spec}}``: a dump of that map works as it is); a SWE-bench 5 row's ``eval_script`` gives
the test command and its ``log_parser``/``eval_type`` replace the spec's.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from sandboxes.errors import UserError
from sandboxes.settings import Config

from benchmarks.repo.patch import parse_patch
from benchmarks.resolve.instances import Instance

START_MARK = ">>>>> Start Test Output"
END_MARK = ">>>>> End Test Output"
EXIT_MARK = ">>>>> Test Exit Code"
"""SWE-bench's log markers (``swebench.harness.constants``); the grader looks for exactly these."""
NON_TEST_EXTS = (".json", ".png", "csv", ".txt", ".md", ".jpg", ".jpeg", ".pkl", ".yml", ".yaml", ".toml")
"""Files of a test patch that are not test modules (SWE-bench's ``NON_TEST_EXTS``)."""
KNOWN_KEYS = ("python", "packages", "pip_packages", "pre_install", "install", "eval_commands", "test_cmd",
              "system_site_packages", "log_parser", "eval_type")


class EnvSpec(Config):
    """The environment of one (repository, version) and how its tests run, in SWE-bench's spec keys."""

    python: str = "3.11"
    """Python version of the environment (``3.9``); an interpreter of that version must be installed here."""
    packages: str = ""
    """Space-separated requirements (SWE-bench installs them with conda; here pip). ``environment.yml`` and
    ``requirements.txt`` (read from the repository by SWE-bench) cannot be met by this harness."""
    pip_packages: list[str] = Field(default_factory=list)
    """Pinned requirements installed from the package index (``pytest==7.4.0``)."""
    pre_install: list[str] = Field(default_factory=list)
    """System set-up commands (apt-get ...): they cannot be met in a virtual environment."""
    install: str = ""
    """Command run in the sandbox, in the checkout, before the tests (the shared environment is read-only
    there, so an install into it fails; a build in place works)."""
    eval_commands: list[str] = Field(default_factory=list)
    """Shell lines run before the tests (``export LANG=C.UTF-8``)."""
    test_cmd: str = "pytest -rA"
    """The test command; the test files the test patch touches are appended (as SWE-bench does)."""
    system_site_packages: bool = False
    """Let the environment see the host Python's packages (the generated benchmark's pytest comes from there)."""
    log_parser: str = "parse_log_pytest"
    """Name of the SWE-bench log parser (``swebench.harness.log_parsers.PARSER_REGISTRY``)."""
    eval_type: Literal["pass_and_fail", "fail_only"] = "pass_and_fail"
    """SWE-bench's grading mode."""

    @classmethod
    def from_swebench(cls, data: dict[str, Any], where: str) -> "EnvSpec":
        """A spec from a SWE-bench spec dict; keys this harness does not use are ignored, a bad value is an error."""
        known = {key: value for key, value in data.items() if key in KNOWN_KEYS}
        for key in ("pre_install", "eval_commands", "pip_packages"):
            if isinstance(known.get(key), str):
                known[key] = [known[key]]
        if isinstance(known.get("python"), (int, float)):
            known["python"] = str(known["python"])
        try:
            return cls(**known)
        except ValidationError as error:
            first = error.errors()[0]
            raise UserError(f"{where}: bad spec ({'.'.join(map(str, first['loc']))}: {first['msg']})") from None

    def unmet(self) -> str:
        """Why this spec cannot be met here ('' when it can), apart from the Python version."""
        if self.pre_install:
            return f"pre_install needs system packages ({self.pre_install[0][:60]}); a virtual environment cannot"
        if self.packages.strip() in ("environment.yml", "requirements.txt"):
            return f"packages={self.packages.strip()} is read from the repository by SWE-bench; not supported here"
        return ""


def load_specs(path: str | Path | None) -> dict[str, dict[str, EnvSpec]]:
    """``{repo: {version: spec}}`` from a JSON file in the shape of SWE-bench's MAP_REPO_VERSION_TO_SPECS."""
    if path is None:
        return {}
    path = Path(path)
    if not path.is_file():
        raise UserError(f"no such specs file: {path}")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise UserError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise UserError(f"{path}: expected {{repo: {{version: spec}}}}")
    return {repo: {str(version): EnvSpec.from_swebench(spec, f"{path} {repo} {version}")
                   for version, spec in versions.items()} for repo, versions in data.items()}


def spec_for(instance: Instance, specs: dict[str, dict[str, EnvSpec]]) -> EnvSpec:
    """The instance's spec: its row's ``spec``, else the specs file's; SWE-bench 5 row fields replace the
    parser and grading mode. No spec is a UserError naming the repository and version."""
    row = instance.data
    if isinstance(row.get("spec"), dict):
        spec = EnvSpec.from_swebench(row["spec"], f"instance {instance.instance_id}")
    elif instance.version in specs.get(instance.repo, {}):
        spec = specs[instance.repo][instance.version]
    else:
        raise UserError(f"no environment spec for {instance.repo} version {instance.version} (instance "
                        f"{instance.instance_id}): give --specs FILE ({{repo: {{version: spec}}}}, SWE-bench's "
                        "per-repository keys; swebench 5 no longer ships them) or a 'spec' field in the row")
    overrides = {key: row[key] for key in ("log_parser", "eval_type") if row.get(key)}
    return spec.model_copy(update=overrides) if overrides else spec


def test_files(test_patch: str) -> list[str]:
    """The test modules a test patch touches (SWE-bench's test directives for pytest repositories)."""
    paths = [edit.new_path or edit.old_path for edit in parse_patch(test_patch)]
    return [p for p in dict.fromkeys(paths) if p and not p.endswith(NON_TEST_EXTS)]


def test_command(instance: Instance, spec: EnvSpec) -> str:
    """The command that runs the instance's tests: the lines between the markers of a SWE-bench 5
    ``eval_script``, else the spec's ``test_cmd`` with the test patch's files."""
    script = instance.data.get("eval_script")
    if isinstance(script, str) and START_MARK in script and END_MARK in script:
        between = script.split(START_MARK, 1)[1].split(END_MARK, 1)[0].split("\n")
        body = [line for line in between[1:-1] if line.strip()]  # the marker lines' own rest is left out
        if body:
            return "\n".join(body)
    files = test_files(instance.test_patch)
    return " ".join([spec.test_cmd, *map(shlex.quote, files)])


def eval_script(instance: Instance, spec: EnvSpec, env_bin: str) -> str:
    """The script the sandbox runs in the patched checkout: the environment first on PATH, the checkout on
    PYTHONPATH, then the spec's set-up lines and the tests between SWE-bench's markers."""
    lines = ["exec 2>&1", f"export PATH={shlex.quote(env_bin)}:\"$PATH\"",
             'export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"', *spec.eval_commands]
    if spec.install:
        lines.append(spec.install)
    lines += [f"echo '{START_MARK}'", test_command(instance, spec), "rc=$?", f"echo '{END_MARK}'",
              f"echo \"{EXIT_MARK}: $rc\""]
    return "\n".join(lines) + "\n"
