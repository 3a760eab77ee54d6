"""The dashboard's JSON API and actions over real runs, through a served dashboard (`agents.ui.app`)."""

from __future__ import annotations

import json

import httpx
import pytest

from agents.runtime.run import Run
from agents.ui.app import create_app
from agents.ui.auth import HEADER, Access


def get(dashboard, path: str, **kwargs) -> httpx.Response:
    return httpx.get(dashboard.url + path, timeout=60, **kwargs)


def post(dashboard, path: str, body: dict, token: str | None = None) -> httpx.Response:
    headers = {HEADER: token} if token else {}
    return httpx.post(dashboard.url + path, json=body, headers=headers, timeout=60)


def test_the_runs_list_has_a_row_per_run_with_its_status_policy_and_best(dashboard):
    rows = {row["id"]: row for row in get(dashboard, "/api/runs").json()}
    ids = dashboard.runs.ids
    assert set(ids.values()) <= set(rows)
    assert rows[ids["demo"]]["status"] == "finished" and rows[ids["demo"]]["best"] == 395
    assert rows[ids["demo"]]["policy"].startswith("offline policy")
    assert rows[ids["stopped"]]["status"] == "stopped" and "call budget" in rows[ids["stopped"]]["reason"]
    assert rows[ids["kernels"]]["best"].startswith("correct 1")


def test_a_run_page_has_its_graph_nodes_costs_and_report(dashboard):
    detail = get(dashboard, f"/api/runs/{dashboard.runs.ids['evokernel']}").json()
    assert {"retrieve", "attempt", "learn"} <= set(detail["graph"]["nodes"])
    assert "graph TD" in detail["graph"]["mermaid"]
    assert {row["node"]: row["runs"] for row in detail["nodes"]} == {"retrieve": 2, "attempt": 2, "learn": 2}
    assert detail["report"]["summary"]["attempts"] == 2


def test_routes_the_compiled_graph_leaves_open_are_drawn_from_the_run(dashboard):
    """PathWise routes with Command(goto=...): its compiled graph draws initialize -> __end__ only."""
    edges = get(dashboard, f"/api/runs/{dashboard.runs.ids['pathwise']}").json()["graph"]["edges"]
    observed = {(e["source"], e["target"]) for e in edges if e.get("observed")}
    assert ("initialize", "inner_step") in observed
    assert not any(e.get("observed") for e in get(dashboard, f"/api/runs/{dashboard.runs.ids['demo']}").json()
                   ["graph"]["edges"])


def test_the_evokernel_panel_has_code_diffs_verdicts_and_retrieved_q_memory(dashboard):
    view = get(dashboard, f"/api/runs/{dashboard.runs.ids['evokernel']}/agent").json()
    [task] = view["tasks"]
    first, second = task["attempts"]
    assert first["stage"] == "draft" and first["status"] == "correct" and "def " in first["code"]
    assert second["start_point"] == 1 and second["diff"].startswith("--- attempt 1")
    [entry] = second["retrieved"]
    assert entry["kind"] and entry["text"] and {q["stage"] for q in entry["q_now"]} >= {"refine"}
    assert view["curves"]["correctness"] == [1.0, 1.0]


def test_the_pathwise_panel_has_the_entailment_graph_and_the_gap_curve(dashboard):
    run = dashboard.runs.run("pathwise")
    view = get(dashboard, f"/api/runs/{run.id}/agent").json()
    assert len(view["nodes"]) == run.read_report().summary["heuristics_in_graph"]
    assert all("def " in node["code"] for node in view["nodes"])
    assert {e["target"] for e in view["edges"]} <= {n["id"] for n in view["nodes"]}
    assert [p["evaluation"] for p in view["gaps"]] == list(range(1, len(view["gaps"]) + 1))
    assert view["best_id"] == run.read_report().summary["best_id"]


def test_the_splittester_panel_draws_each_generated_layout_with_every_candidates_verdict(dashboard):
    if "splittester" not in dashboard.runs.ids:
        pytest.skip("needs KLayout: apt-get install -y klayout")
    view = get(dashboard, f"/api/runs/{dashboard.runs.ids['splittester']}/agent").json()
    [task] = view["tasks"]
    assert len(task["candidates"]) == 4 and all(c["deck"] for c in task["candidates"])
    assert task["tests"] and all(t["layout"]["layers"][0]["polygons"] for t in task["tests"])
    assert all(len(t["verdicts"]) == 4 for t in task["tests"])


def test_a_missing_run_is_a_404_with_one_line(dashboard):
    response = get(dashboard, "/api/runs/no-such-run")
    assert response.status_code == 404 and "no run" in response.json()["error"]


def test_actions_need_the_token_and_then_change_the_run(dashboard):
    stopped = dashboard.runs.ids["stopped"]
    refused = post(dashboard, f"/api/runs/{stopped}/budget", {"limits": {"max_calls": 3}})
    assert refused.status_code == 403
    assert Run.open(stopped, dashboard.runs.root).runtime.get("max_calls") == 0
    wrong = post(dashboard, f"/api/runs/{stopped}/budget", {"limits": {"max_calls": 3}}, token="not-it")
    assert wrong.status_code == 403
    done = post(dashboard, f"/api/runs/{stopped}/budget", {"limits": {"max_calls": 3}}, token=dashboard.token)
    assert done.status_code == 200, done.text
    assert Run.open(stopped, dashboard.runs.root).runtime["max_calls"] == 3
    guided = post(dashboard, f"/api/runs/{stopped}/guidance", {"text": "use the calculator"}, token=dashboard.token)
    assert guided.status_code == 200
    assert Run.open(stopped, dashboard.runs.root).meta["guidance"][-1] == "use the calculator"


def test_bad_actions_get_one_clear_line(dashboard):
    demo = dashboard.runs.ids["demo"]
    cases = [("pause", {}, "only a running run"), ("budget", {"limits": {"max_calls": -1}}, "0 or more"),
             ("resume", {}, "nothing to resume"), ("explode", {}, "unknown action")]
    for action, body, said in cases:
        response = post(dashboard, f"/api/runs/{demo}/{action}", body, token=dashboard.token)
        assert response.status_code in (400, 404) and said in response.json()["error"], (action, response.text)
    raw = httpx.post(f"{dashboard.url}/api/runs/{demo}/guidance", content=b"[1", headers={HEADER: dashboard.token})
    assert raw.status_code == 400 and "not JSON" in raw.json()["error"]


def test_beyond_loopback_reading_needs_the_token_too(ui_runs):
    from starlette.testclient import TestClient

    client = TestClient(create_app(ui_runs.root, Access.for_host("0.0.0.0", "remote-token")))
    assert client.get("/api/runs").status_code == 401
    assert client.get("/").status_code == 401
    assert client.get("/api/runs", headers={HEADER: "remote-token"}).status_code == 200
    opened = client.get("/?token=remote-token")
    assert opened.status_code == 200 and client.get("/api/runs").status_code == 200  # kept in the cookie
    assert json.loads(client.get("/api/session").text)["remote"] is True
