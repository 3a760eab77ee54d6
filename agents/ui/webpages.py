"""The dashboard's HTML pages and the one joined script each loads.

The runs list comes with its rows inlined (the index's current snapshot, as JSON in the page), so the browser
draws the table from the page itself before it opens the live stream, which then sends only changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request, Response

from agents.ui.bundle import Bundle, join
from agents.ui.runs_index import RunsIndex

STATIC = Path(__file__).resolve().parent / "static"
PAGES = {"/": "index.html", "/compare": "compare.html", "/runs/{run_id}": "run.html"}
ENTRIES = ("runs.js", "run.js", "compare.js")
RUNS_DATA = "<!-- the runs list's rows: inlined here by agents/ui/webpages.py -->"
"""The line of index.html that the runs' rows replace."""
NO_CACHE = {"Cache-Control": "no-cache"}
PAGE_AGE_POLLS = 2
"""The runs list page may bring a snapshot this many polls old instead of scanning the runs folder while the
browser waits: the live stream it opens takes a fresh one at once (at most half a poll old) and sends what
changed since."""


def inline_json(body: bytes) -> str:
    """JSON bytes safe inside a ``<script type="application/json">`` element (no ``</script>`` or ``<!--``)."""
    return body.decode().replace("<", "\\u003c")


class Pages:
    """The three pages (read once) and their joined scripts (joined once, served with an entity tag)."""

    def __init__(self, index: RunsIndex, poll_s: float):
        self.index = index
        self.poll_s = poll_s
        self.html = {name: (STATIC / name).read_text() for name in set(PAGES.values())}
        if RUNS_DATA not in self.html["index.html"]:
            raise ValueError(f"index.html lost the line the runs' rows replace: {RUNS_DATA}")
        self.bundles: dict[str, Bundle] = {entry: join(entry) for entry in ENTRIES}

    def page(self, name: str) -> Any:
        """The route serving page ``name`` (the runs list with its rows inlined)."""
        def serve() -> Response:
            html = self.html[name]
            if name == "index.html":
                snapshot = self.index.snapshot(PAGE_AGE_POLLS * self.poll_s)
                data = (b'{"version":"' + snapshot.version.encode() + b'","rows":' + snapshot.body + b"}")
                html = html.replace(RUNS_DATA, f'<script type="application/json" id="runs-data">'
                                               f"{inline_json(data)}</script>")
            return Response(html, media_type="text/html", headers=NO_CACHE)
        return serve

    def script(self, entry: str, request: Request) -> Response:
        """A joined script (404 for an unknown one)."""
        bundle = self.bundles.get(entry)
        if bundle is None:
            return Response(f"no script {entry}; known: {', '.join(ENTRIES)}", status_code=404, media_type="text/plain")
        return tagged(request, bundle.text.encode(), bundle.etag, "text/javascript")


def tagged(request: Request, body: bytes, etag: str, media_type: str) -> Response:
    """``body`` with its entity tag; an empty 304 when the browser already holds that version."""
    headers = {**NO_CACHE, "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)
