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
    """``count`` runs under ``root``: two real demo runs (two questions), then copies."""
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


def time_api(client: Any, url: str) -> tuple[float, int]:
    """Seconds one GET /api/runs takes over ``client`` (an open httpx client), and how many rows it returned."""
    start = time.perf_counter()
    rows = client.get(f"{url}/api/runs", timeout=120).json()
    return time.perf_counter() - start, len(rows)


ROWS_SEEN = """(count) => new MutationObserver((_changes, observer) => {
  if (document.querySelectorAll("#runs-table tbody tr").length !== count) return;
  window.__rowsShownAt = performance.now();  // milliseconds since the navigation started
  observer.disconnect();
}).observe(document, { childList: true, subtree: true })"""
"""Run in the page before its own scripts: notes when the table first holds ``count`` rows."""


def time_page(url: str, count: int, profile: Path, repeats: int) -> list[tuple[float, float]] | None:
    """For each of ``repeats`` loads of the runs list in headless Chromium (a new tab, its cache off): seconds from
    the navigation's start to ``count`` rows in the table, as the page itself saw it, and as the driver saw it
    from asking for the page (None without Playwright or Debian's chromium)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if not Path(CHROMIUM).exists():
        return None
    times = []
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM,
                                                                headless=True, args=CHROMIUM_FLAGS)
        context.add_init_script(f"({ROWS_SEEN})({count})")
        context.new_page().goto(f"{url}/static/style.css")  # the browser is started and warm before any clock
        for _ in range(repeats):
            page = context.new_page()
            context.new_cdp_session(page).send("Network.setCacheDisabled", {"cacheDisabled": True})
            start = time.perf_counter()
            page.goto(f"{url}/", wait_until="commit")
            page.wait_for_function("window.__rowsShownAt !== undefined", timeout=120_000)
            driver_s = time.perf_counter() - start
            times.append((page.evaluate("window.__rowsShownAt") / 1000, driver_s))
            page.close()
        context.close()
    return times


def measure(root: Path, count: int, repeats: int = 5) -> dict[str, Any]:
    """Make ``count`` runs under ``root`` and time each reader over them, side by side in this process; the load
    average (1 minute) is taken before and after."""
    import httpx

    ids = make_runs(root, count)
    load_before = os.getloadavg()[0]
    command_s = time_runs_list_command(root, len(ids))
    with served(root) as url, httpx.Client() as client:
        cold_s, rows = time_api(client, url)
        warm_s, _ = time_api(client, url)
        pages = time_page(url, rows, root.parent / "chromium-profile", repeats)
    shown = sorted(seen for seen, _ in pages) if pages else None
    median = None if not shown else shown[len(shown) // 2]
    return {"runs": len(ids), "load_average_before": round(load_before, 2),
            "agent_runs_list_s": round(command_s, 3), "api_runs_cold_s": round(cold_s, 3),
            "api_runs_warm_s": round(warm_s, 3), "rows": rows,
            "page_runs_list_s": None if pages is None else [round(seen, 3) for seen, _ in pages],
            "page_driver_s": None if pages is None else [round(driver, 3) for _, driver in pages],
            "page_median_s": None if median is None else round(median, 3),
            "page_median_over_command": None if median is None else round(median / command_s, 3),
            "load_average_after": round(os.getloadavg()[0], 2)}
