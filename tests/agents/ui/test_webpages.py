"""The dashboard's pages and joined scripts as served (`agents.ui.webpages`): the runs list brings its rows,
scripts and lists are tagged for revalidation, and responses are gzipped except the event streams."""

from __future__ import annotations

import json
import re

import pytest

from agents.runtime.run import Run
from agents.ui.app import create_app
from agents.ui.auth import Access
from agents.ui.webpages import inline_json

HOSTILE = "</script><script>window.owned = 1</script><!--"


@pytest.fixture
def client(tmp_path):
    from starlette.testclient import TestClient

    Run.create("alpha", {}, tmp_path).set_status("finished")
    Run.create("beta", {}, tmp_path).set_status("failed", HOSTILE)
    return TestClient(create_app(tmp_path, Access("t0ken")))


def inlined(html: str) -> dict:
    [data] = re.findall(r'<script type="application/json" id="runs-data">(.*?)</script>', html, re.S)
    return json.loads(data)


def test_the_runs_list_brings_the_rows_the_api_serves_and_their_version(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
    data = inlined(page.text)
    listed = client.get("/api/runs")
    assert data["rows"] == listed.json() and HOSTILE in {row["reason"] for row in data["rows"]}
    assert listed.headers["etag"] == f'"{data["version"]}"'
    assert client.get("/api/runs", headers={"if-none-match": listed.headers["etag"]}).status_code == 304


def test_run_data_cannot_end_the_inlined_script():
    assert "<" not in inline_json(json.dumps({"reason": HOSTILE}).encode())
    assert json.loads(inline_json(json.dumps({"reason": HOSTILE}).encode())) == {"reason": HOSTILE}


def test_each_page_loads_its_one_joined_script_tagged_for_revalidation(client):
    for path, entry in (("/", "runs.js"), ("/compare", "compare.js"), ("/runs/anything", "run.js")):
        assert f'<script type="module" src="/static/app/{entry}"></script>' in client.get(path).text
        script = client.get(f"/static/app/{entry}")
        assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
        assert client.get(f"/static/app/{entry}", headers={"if-none-match": script.headers["etag"]}).status_code == 304
    assert client.get("/static/app/nothing.js").status_code == 404


def test_the_runs_stream_is_not_gzipped_and_skips_the_list_the_page_has(client):
    version = inlined(client.get("/").text)["version"]
    with client.stream("GET", "/api/runs/stream") as stream:
        assert "content-encoding" not in stream.headers
        assert next(stream.iter_lines()).startswith("event: runs")
    assert version  # the same stream with ?since= is followed in tests/agents/ui/test_tailing.py
