"""The dashboard's pages in a real headless Chromium (Debian's, driven by Playwright) over real runs: the runs list,
each agent's run page, a run followed live while it writes events, actions with and without the token, and the
README's screenshot."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from agents.runtime.run import Run, list_run_ids
from agents.ui.actions import RESUME_LOG

SCREENSHOT = "AGENT_UI_SCREENSHOT"
"""Where the screenshot goes when set (the README's is made with agents/ui/screenshots/run-page.png)."""
WAIT_MS = 30_000
ANSWERED = "unroll the loop by four"


def open_run(page, dashboard, name: str):
    page.goto(f"{dashboard.url}/runs/{dashboard.runs.ids[name]}")
    page.wait_for_selector("#title .badge", timeout=WAIT_MS)
    return page


def test_the_runs_list_shows_every_run_with_status_and_policy(page, dashboard):
    page.goto(dashboard.url + "/")
    page.wait_for_selector("#runs-table", timeout=WAIT_MS)
    ids = dashboard.runs.ids
    for run_id in ids.values():
        assert page.locator(f'tr[data-id="{run_id}"]').count() == 1
    demo = page.locator(f'tr[data-id="{ids["demo"]}"]')
    assert "finished" in demo.inner_text() and "offline policy" in demo.inner_text() and "395" in demo.inner_text()
    assert page.locator(f'tr[data-id="{ids["stopped"]}"]').get_attribute("data-status") == "stopped"
    page.select_option("#agent-filter", "evokernel")
    assert page.locator("#runs-table tbody tr").count() == 2  # finished, and the one paused at its question
    page.select_option("#agent-filter", "")
    page.locator(f'tr[data-id="{ids["demo"]}"] a').click()
    page.wait_for_url(f"**/runs/{ids['demo']}")


def test_the_runs_list_is_drawn_from_the_rows_the_page_brings_before_any_stream(page, dashboard):
    """The live stream is held back: every row still shows, from the data inlined in the page."""
    page.route("**/api/runs/stream*", lambda route: None)  # never answered
    page.goto(dashboard.url + "/")
    page.wait_for_selector("#runs-table", timeout=WAIT_MS)
    assert page.locator("#runs-table tbody tr").count() == len(list_run_ids(dashboard.runs.root))
    scripts = page.evaluate("[...document.scripts].map((s) => s.src).filter(Boolean)")
    assert scripts == [dashboard.url + "/static/app/runs.js"]  # one joined script, no module chain


def test_two_runs_picked_in_the_list_are_compared_side_by_side(page, dashboard):
    ids = dashboard.runs.ids
    page.goto(dashboard.url + "/")
    page.wait_for_selector("#runs-table", timeout=WAIT_MS)
    for name in ("evokernel", "pathwise"):
        page.check(f'tr[data-id="{ids[name]}"] input[type=checkbox]')
    page.click("#compare")
    page.wait_for_selector("#compare-table", timeout=WAIT_MS)
    table = page.inner_text("#compare-table")
    assert ids["evokernel"] in table and ids["pathwise"] in table
    assert page.locator("#curves svg").count() >= 2  # EvoKernel's curves and PathWise's best gap


def test_a_run_page_has_the_graph_timeline_costs_and_report(page, dashboard):
    open_run(page, dashboard, "demo")
    page.wait_for_selector('#graph-drawing g.node[data-id="plan"]', timeout=WAIT_MS)
    assert page.locator("#graph-drawing path.edge").count() >= 3
    assert "×1" in page.locator('#graph-drawing g.node[data-id="act"]').text_content()
    page.wait_for_selector('#timeline .ev[data-kind="run.end"]', timeout=WAIT_MS)
    assert page.locator('#timeline .ev[data-kind="node.start"]').count() == 2
    page.fill("#kind-filter", "node.end")
    assert page.locator("#timeline .ev").count() == 2
    assert "plan" in page.locator("#costs").inner_text() and "no model calls" in page.locator("#costs").inner_text()
    assert "395" in page.locator("#report").inner_text()


def test_the_evokernel_page_shows_attempts_diffs_and_the_retrieved_q_memory(page, dashboard):
    open_run(page, dashboard, "evokernel")
    page.wait_for_selector("#evo-attempts", timeout=WAIT_MS)
    assert page.locator("#evo-attempts tbody tr").count() == 2
    assert page.locator("#evo-correctness svg").count() == 1 and page.locator("#evo-speedup svg").count() == 1
    detail = page.locator("#attempt-detail")
    assert "attempt 2 (refine)" in detail.inner_text() and "Diff from attempt 1" in detail.inner_text()
    assert page.locator("#attempt-detail pre.diff").count() == 1
    assert "Q now, per stage" in detail.inner_text() and "refine" in detail.locator("table").inner_text()
    page.locator("#evo-attempts tbody tr").first.click()
    assert "attempt 1 (draft)" in page.locator("#attempt-detail").inner_text()
    assert "a draft: no start point" in page.locator("#attempt-detail").inner_text()


def test_the_pathwise_page_draws_the_entailment_graph_and_opens_a_heuristic(page, dashboard):
    run = dashboard.runs.run("pathwise")
    open_run(page, dashboard, "pathwise")
    page.wait_for_selector("#entailment-graph svg", timeout=WAIT_MS)
    nodes = page.locator("#entailment-graph g.node")
    assert nodes.count() == run.read_report().summary["heuristics_in_graph"]
    assert page.locator("#gap-chart svg").count() == 1
    other = next(n for n in nodes.evaluate_all("gs => gs.map(g => g.dataset.id)") if n != run.read_report().summary["best_id"])
    page.locator(f'#entailment-graph g.node[data-id="{other}"]').click()
    assert page.locator("#heuristic-detail h3").first.inner_text().startswith(other)
    assert "def " in page.locator("#heuristic-detail pre").inner_text()


def test_the_splittester_page_draws_the_generated_layouts_and_verdicts(page, dashboard):
    if "splittester" not in dashboard.runs.ids:
        pytest.skip("needs KLayout: apt-get install -y klayout")
    open_run(page, dashboard, "splittester")
    page.wait_for_selector(".layout-card svg.layout path", timeout=WAIT_MS)
    cards = page.locator(".layout-card")
    assert cards.count() >= 1
    assert cards.first.locator("tbody tr").count() == 4
    assert "expected" in cards.first.inner_text()


def test_the_rpg_and_kernel_benchmark_pages_show_their_panels(page, dashboard):
    open_run(page, dashboard, "rpg")
    page.wait_for_selector("#rpg-tree", timeout=WAIT_MS)
    assert "shop" in page.locator("#rpg-tree").inner_text()
    open_run(page, dashboard, "kernels")
    page.wait_for_selector("#kernel-rows", timeout=WAIT_MS)
    assert "correct" in page.locator("#kernel-rows").inner_text()
    assert page.locator("#speedup-chart svg").count() == 1


def test_a_live_run_is_followed_and_paused_from_the_page_only_with_the_token(page, dashboard, monkeypatch):
    """A real demo run (each node waits) started after the page could be opened; its timeline grows over SSE and
    the pause button asks it to pause once the token is typed."""
    from agents.demo.config import DemoConfig
    from agents.runtime.launch import RunOptions, launch

    monkeypatch.setenv("AGENT_RUNS_DIR", str(dashboard.runs.root))
    before = set(list_run_ids(dashboard.runs.root))
    worker = threading.Thread(target=launch, args=("demo", DemoConfig(step_delay_s=4.0), RunOptions(model="offline")))
    worker.start()
    try:
        page.goto(dashboard.url + "/")
        page.wait_for_function(f"document.querySelectorAll('#runs-table tbody tr').length > {len(before)}",
                               timeout=WAIT_MS)
        [live] = set(list_run_ids(dashboard.runs.root)) - before
        page.goto(f"{dashboard.url}/runs/{live}")
        page.wait_for_selector('#timeline .ev[data-kind="node.start"]', timeout=WAIT_MS)
        assert page.locator('#timeline .ev[data-kind="run.end"]').count() == 0
        page.wait_for_selector("#pause:not([disabled])", timeout=WAIT_MS)
        page.click("#pause")
        page.wait_for_selector("#action-message.error", timeout=WAIT_MS)
        assert "token" in page.inner_text("#action-message")
        assert not (Run.open(live, dashboard.runs.root).dir / "pause.request").exists()
        page.fill("#token", dashboard.token)
        page.click("#pause")
        page.wait_for_selector("#action-message.ok", timeout=WAIT_MS)
        page.wait_for_selector('#timeline .ev[data-kind="pause.requested"]', timeout=WAIT_MS)
        page.wait_for_selector('#timeline .ev[data-kind="run.end"]', timeout=60_000)
        assert page.locator('#timeline .ev[data-kind="node.end"]').count() == 2
        page.wait_for_function("document.querySelector('#title .badge').textContent === 'finished'", timeout=WAIT_MS)
    finally:
        worker.join(timeout=120)


def test_a_paused_run_resumes_with_the_answer_given_on_the_page_only_with_the_token(page, dashboard, monkeypatch):
    """The paused EvoKernel run asks for a budget or guidance; the answer typed on the page resumes it through
    `agent runs resume --answer` (which the dashboard starts), and the run records the answer: a budget of one
    attempt ends it at once, so no kernel is verified again."""
    for variable in [name for name in os.environ if name.startswith("AGENT_")]:
        monkeypatch.delenv(variable)
    monkeypatch.setenv("AGENT_CACHE_DIR", str(dashboard.runs.work / "cache"))
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    run = dashboard.runs.run("paused")
    open_run(page, dashboard, "paused")
    assert "It waits for an answer: EvoKernel paused after round 1" in page.inner_text("#actions")
    page.fill("#answer", json.dumps({"budget": 1, "guidance": ANSWERED}))
    page.click("#resume")
    page.wait_for_selector("#action-message.error", timeout=WAIT_MS)
    assert "token" in page.inner_text("#action-message")
    assert run.status_record()["status"] == "paused" and not (run.dir / RESUME_LOG).exists()
    page.fill("#token", dashboard.token)
    page.click("#resume")
    page.wait_for_selector("#action-message.ok, #action-message.error:not(:has-text('token'))", timeout=120_000)
    assert "ok" in page.get_attribute("#action-message", "class"), (page.inner_text("#action-message"),
                                                                    (run.dir / RESUME_LOG).read_text())
    page.wait_for_function("document.querySelector('#title .badge').textContent === 'finished'", timeout=120_000)
    page.wait_for_selector('#timeline .ev[data-kind="evokernel.steered"]', timeout=WAIT_MS)
    resumed = Run.open(run.id, dashboard.runs.root)
    [steered] = resumed.events("evokernel.steered")
    assert steered["budget"] == 1 and steered["guidance"] == ANSWERED
    assert resumed.meta["guidance"][-1] == ANSWERED and resumed.status == "finished"
    assert len(resumed.events("evokernel.attempt")) == 1


def test_the_readme_screenshot_is_a_real_run_page(page, dashboard, tmp_path):
    open_run(page, dashboard, "evokernel")
    page.wait_for_selector("#evo-attempts", timeout=WAIT_MS)
    page.wait_for_selector('#timeline .ev[data-kind="run.end"]', timeout=WAIT_MS)
    target = Path(os.environ.get(SCREENSHOT) or tmp_path / "run-page.png")
    target.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(target), full_page=True)
    assert target.stat().st_size > 20_000
