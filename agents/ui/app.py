"""The dashboard's web application: three pages (runs list, run, comparison), their JSON API, live server-sent
event streams and the actions; static files are the package's own (no CDN), each page's scripts joined into one,
responses gzipped (not the event streams). Needs FastAPI (the ``ui`` extra)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from sandboxes.errors import UserError

from agents.runtime.run import Run, runs_root
from agents.ui import actions
from agents.ui.auth import COOKIE, Access
from agents.ui.webpages import PAGES, STATIC, Pages, tagged
from agents.ui.run_view import run_detail
from agents.ui.runs_index import RunsIndex
from agents.ui.tailing import event_stream, rows_stream
from agents.ui.views import agent_view
from agents.ui.views.compare import compare

ACTIONS = {"pause": lambda run, body: actions.pause(run), "guidance": lambda run, body: actions.guide(run, body.get("text")),
           "budget": lambda run, body: actions.budget(run, body.get("limits")),
           "resume": lambda run, body: actions.resume(run, body.get("answer"))}
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def create_app(root: str | Path | None, access: Access, poll_s: float = 0.5) -> Any:
    """The FastAPI application over the runs under ``root``."""
    base = runs_root(root)
    index = RunsIndex(base)
    pages = Pages(index, poll_s)
    app = FastAPI(title="agentkiln", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.index = index
    app.add_middleware(GZipMiddleware, minimum_size=1024)  # text/event-stream is left alone

    @app.middleware("http")
    async def reading_needs_the_token_off_loopback(request: Request, call_next: Any) -> Any:
        if not access.may_read(request.headers, request.cookies, request.query_params):
            return JSONResponse({"error": "this dashboard is bound beyond loopback: open the URL `agent ui` printed "
                                          "(it carries ?token=...)"}, status_code=401)
        response = await call_next(request)
        if access.remote and request.query_params.get("token") == access.token:
            response.set_cookie(COOKIE, access.token, httponly=True, samesite="strict")
        return response

    @app.exception_handler(UserError)
    async def user_error(_request: Request, error: UserError) -> Any:
        missing = str(error).startswith("no run ")
        return JSONResponse({"error": str(error)}, status_code=404 if missing else 400)

    for path, page in PAGES.items():
        app.add_api_route(path, pages.page(page), methods=["GET"], include_in_schema=False)
    app.add_api_route("/static/app/{entry}", pages.script, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_api_route("/favicon.ico", lambda: Response(status_code=204), methods=["GET"], include_in_schema=False)

    @app.get("/api/session")
    def session() -> dict[str, Any]:
        return {"root": str(base.resolve()), "remote": access.remote, "poll_s": poll_s}

    @app.get("/api/runs")
    def runs(request: Request) -> Response:
        snapshot = index.snapshot(poll_s / 2)
        return tagged(request, snapshot.body, f'"{snapshot.version}"', "application/json")

    @app.get("/api/runs/stream")
    async def runs_live(request: Request, since: str = "") -> Any:
        shown = request.headers.get("last-event-id") or since
        return StreamingResponse(rows_stream(lambda: index.snapshot(poll_s / 2), shown, poll_s,
                                             request.is_disconnected),
                                 media_type="text/event-stream", headers=SSE_HEADERS)

    @app.get("/api/runs/{run_id}")
    def run_page(run_id: str) -> dict[str, Any]:
        return run_detail(Run.open(run_id, base))

    @app.get("/api/runs/{run_id}/agent")
    def agent_panel(run_id: str) -> dict[str, Any] | None:
        return agent_view(Run.open(run_id, base))

    @app.get("/api/runs/{run_id}/events")
    async def run_events(run_id: str, request: Request, offset: int = 0) -> Any:
        run = Run.open(run_id, base)
        resumed = request.headers.get("last-event-id", "")
        start = int(resumed) if resumed.isdigit() else max(offset, 0)
        return StreamingResponse(event_stream(run, start, poll_s, request.is_disconnected),
                                 media_type="text/event-stream", headers=SSE_HEADERS)

    @app.get("/api/compare")
    def compare_runs(ids: str = "") -> dict[str, Any]:
        return compare(base, [part for part in ids.split(",") if part.strip()])

    @app.post("/api/runs/{run_id}/{action}")
    async def act(run_id: str, action: str, request: Request) -> Any:
        if not access.may_act(request.headers):
            return JSONResponse({"error": "actions need the token `agent ui` printed at start-up"}, status_code=403)
        if action not in ACTIONS:
            return JSONResponse({"error": f"unknown action {action!r}; known: {', '.join(ACTIONS)}"}, status_code=404)
        body = await _json_body(request)
        return await run_in_threadpool(lambda: ACTIONS[action](Run.open(run_id, base), body))

    return app


async def _json_body(request: Any) -> dict[str, Any]:
    raw = await request.body()
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except json.JSONDecodeError as error:
        raise UserError(f"the request body is not JSON: {error}") from None
    if not isinstance(body, dict):
        raise UserError("the request body must be a JSON object")
    return body
