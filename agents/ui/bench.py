"""`agent bench ui`: the dashboard's runs list over many runs, timed beside `agent runs list` reading the same runs.

The runs are copies (new ids) of a few real demo runs the benchmark makes first: each copy is a complete run
directory (config, events, checkpoints, status, report) that both readers open in full."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any, Iterator

from agents.runtime.run import CONFIG_FILE, list_run_ids

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def make_runs(root: Path, count: int) -> list[str]:
    """``count`` runs under ``root``: two real demo runs (one finished, one stopped by its budget), then copies."""
    from agents.demo.config import DemoConfig
    from agents.cli import run_demo  # noqa: F401  (registers the demo agent)
    from agents.runtime.launch import RunOptions, launch

    with contextlib.redirect_stderr(io.StringIO()), _runs_dir(root):
        seeds = [launch("demo", DemoConfig(), RunOptions(model="offline"))[0],
                 launch("demo", DemoConfig(question="What is 2 ** 10?"), RunOptions(model="offline"))[0]]
    for index in range(count - len(seeds)):
        seed = seeds[index % len(seeds)]
        copy_id = f"{seed.id}-copy{index:04d}"
        shutil.copytree(seed.dir, root / copy_id)
        meta = json.loads((root / copy_id / CONFIG_FILE).read_text())
        (root / copy_id / CONFIG_FILE).write_text(json.dumps({**meta, "id": copy_id}, indent=2) + "\n")
    return list_run_ids(root)


@contextlib.contextmanager
def _runs_dir(root: Path) -> Iterator[None]:
    """``$AGENT_RUNS_DIR`` set to ``root`` for the runs `launch` creates."""
    before = os.environ.get("AGENT_RUNS_DIR")
    os.environ["AGENT_RUNS_DIR"] = str(root)
    try:
        yield
    finally:
        if before is None:
            del os.environ["AGENT_RUNS_DIR"]
        else:
            os.environ["AGENT_RUNS_DIR"] = before


def time_runs_list_command(root: Path, count: int) -> float:
    """Seconds `agent runs list --limit COUNT --json` takes in this process (its output discarded)."""
    from agents.cli.app import main

    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(["runs", "list", "--root", str(root), "--limit", str(count), "--json"])
    return time.perf_counter() - start


@contextlib.contextmanager
def served(root: Path) -> Iterator[str]:
    """The dashboard over ``root`` on a free loopback port, in this process; its base URL."""
    import uvicorn

    from agents.mcp.serve import bind
    from agents.ui.app import create_app
    from agents.ui.auth import Access

    listener = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(root, Access()), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def time_api(url: str) -> tuple[float, int]:
    """Seconds one GET /api/runs takes, and how many rows it returned."""
    import httpx

    start = time.perf_counter()
    rows = httpx.get(f"{url}/api/runs", timeout=120).json()
    return time.perf_counter() - start, len(rows)


def time_page(url: str, count: int, profile: Path) -> float | None:
    """Seconds headless Chromium takes from opening the runs list to showing ``count`` rows (None without
    Playwright or Debian's chromium)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not Path(CHROMIUM).exists():
        return None
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM,
                                                                headless=True, args=CHROMIUM_FLAGS)
        page = context.new_page()
        page.goto(f"{url}/static/style.css")  # the browser is started and warm before the clock starts
        start = time.perf_counter()
        page.goto(f"{url}/")
        page.wait_for_function(f"document.querySelectorAll('#runs-table tbody tr').length === {count}",
                               timeout=120_000)
        seconds = time.perf_counter() - start
        context.close()
    return seconds


def measure(root: Path, count: int) -> dict[str, Any]:
    """Make ``count`` runs under ``root`` and time each reader over them, side by side in this process."""
    ids = make_runs(root, count)
    command_s = time_runs_list_command(root, len(ids))
    with served(root) as url:
        cold_s, rows = time_api(url)
        warm_s, _ = time_api(url)
        page_s = time_page(url, rows, root.parent / "chromium-profile")
    return {"runs": len(ids), "agent_runs_list_s": round(command_s, 3), "api_runs_cold_s": round(cold_s, 3),
            "api_runs_warm_s": round(warm_s, 3), "page_runs_list_s": None if page_s is None else round(page_s, 3),
            "rows": rows, "page_over_command": None if page_s is None else round(page_s / command_s, 3)}
