"""The dashboard's tests share real runs made once per session (each agent's own CLI, offline policies, real
sandboxes and toolchains), a dashboard served in-process over them, and a headless Chromium."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("fastapi", reason='needs FastAPI and uvicorn: pip install -e ".[ui]"')

from agents.runtime.run import Run, list_run_ids  # noqa: E402
from agents.ui.bench import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402
from tests.system_tools import missing_tool  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
TOKEN = "test-token-0123"
CALC = {"tool_calls": [{"id": "call_1", "name": "calculator", "arguments": {"expression": "17 * 23 + 4"}}]}


def cli(*args: str) -> int:
    """Run the `agent` CLI in this process; its exit code."""
    from agents.cli.app import main

    try:
        main(list(args))
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 1
    return 0


def small_relu(folder: Path) -> Path:
    """A folder holding a KernelBench-format ReLU on 4 x 4096 elements (the simulated NPU checks it in seconds)."""
    folder.mkdir(parents=True)
    source = (REPO / "benchmarks" / "kernels" / "builtin" / "L1" / "relu.py").read_text()
    (folder / "relu.py").write_text(source.replace("batch_size = 16", "batch_size = 4").replace("dim = 262144", "dim = 4096"))
    return folder


@dataclass
class Runs:
    """The session's runs folder and the id of each run made in it, by name."""

    root: Path
    ids: dict[str, str]
    work: Path

    def run(self, name: str) -> Run:
        return Run.open(self.ids[name], self.root)


def make(root: Path, work: Path, name: str, *args: str, expect: int = 0) -> str:
    before = set(list_run_ids(root))
    code = cli(*args)
    assert code == expect, f"{name}: `agent {' '.join(args)}` exited {code}"
    [made] = set(list_run_ids(root)) - before
    return made


@pytest.fixture(scope="session")
def ui_runs(tmp_path_factory) -> Runs:
    """demo (finished, and stopped by its budget), evokernel (finished, and paused at its question after one
    round), pathwise, rpg, splittester and a kernel benchmark."""
    from benchmarks.repo.demo import build_demo

    work = tmp_path_factory.mktemp("ui-work")
    root = work / "runs"
    replies = work / "replies.json"
    replies.write_text(json.dumps([CALC]))
    tasks = small_relu(work / "tasks")
    solutions = work / "solutions"
    solutions.mkdir()
    shutil.copy(REPO / "benchmarks/kernels/solutions/accepted/npu/L1__relu__npu_function_kernel.py", solutions / "relu.py")
    repo, instances = build_demo(work / "src")
    ids: dict[str, str] = {}
    with pytest.MonkeyPatch.context() as env:
        for variable in [name for name in os.environ if name.startswith("AGENT_")]:
            env.delenv(variable)
        env.setenv("AGENT_RUNS_DIR", str(root))
        env.setenv("AGENT_CACHE_DIR", str(work / "cache"))
        env.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        env.chdir(work)
        ids["demo"] = make(root, work, "demo", "run", "demo")
        ids["stopped"] = make(root, work, "stopped", "run", "demo", "--model", f"scripted:{replies}", "--max-calls", "0",
                              expect=3)
        ids["evokernel"] = make(root, work, "evokernel", "run", "evokernel", "--target", "npu", "--tasks", str(tasks),
                                "--budget", "2")
        ids["paused"] = make(root, work, "paused", "run", "evokernel", "--target", "npu", "--tasks", str(tasks),
                             "--budget", "2", "--pause-every", "1", expect=4)  # its first attempt's verdict is cached
        ids["pathwise"] = make(root, work, "pathwise", "run", "pathwise", "--problem", "kp_construct", "--budget", "5",
                               "--initial-population", "1", "--model", "offline", "--no-test")
        ids["rpg"] = make(root, work, "rpg", "run", "rpg", "--repo", str(repo), "--issue",
                          instances[0]["problem_statement"])
        ids["kernels"] = make(root, work, "kernels", "bench", "kernels", "--target", "npu", "--tasks", str(tasks),
                              "--solutions", str(solutions), "--trials", "2", "--timing-budget", "0.2")
        if not missing_tool("klayout"):
            ids["splittester"] = make(root, work, "splittester", "run", "splittester", "--tasks", "width_space-00",
                                      "--n", "4", "--rounds", "1", "--sandbox", "local")
    return Runs(root, ids, work)


@dataclass
class Dashboard:
    """A dashboard served in this process: its base URL, token, runs and the served application."""

    url: str
    token: str
    runs: Runs
    app: object


@pytest.fixture(scope="session")
def dashboard(ui_runs) -> Iterator[Dashboard]:
    """`agent ui`'s application on a free loopback port over the session's runs (token fixed for the tests)."""
    import uvicorn

    from agents.mcp.serve import bind
    from agents.ui.app import create_app
    from agents.ui.auth import Access

    app = create_app(ui_runs.root, Access(TOKEN), poll_s=0.2)
    listener = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield Dashboard(f"http://127.0.0.1:{listener.getsockname()[1]}", TOKEN, ui_runs, app)
    server.should_exit = True
    thread.join(timeout=30)


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """A headless Debian Chromium driven by Playwright, with a fresh profile; skipped (saying how to get it) where
    either is missing."""
    sync_api = pytest.importorskip("playwright.sync_api", reason='needs Playwright: pip install -e ".[test]"')
    if not Path(CHROMIUM).exists():
        pytest.skip(f"needs Debian's chromium at {CHROMIUM}: apt-get install -y chromium")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True,
            args=CHROMIUM_FLAGS, viewport={"width": 1400, "height": 900})
        yield context
        context.close()


@pytest.fixture
def page(browser):
    """A new tab; JavaScript errors on it fail the test."""
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    tab.close()
    assert not errors, f"JavaScript errors: {errors}"
