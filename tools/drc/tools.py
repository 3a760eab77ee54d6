"""Typed tools over the DRC runner and renderer, for agents and `agent chat`."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from sandboxes.errors import UserError
from tools.base import Tool
from tools.drc.render import render_png, render_text
from tools.drc.runner import DrcRunner
from tools.hostpaths import HostPaths


class RunDeckArgs(BaseModel):
    """Arguments of `drc_run_deck`."""

    deck: str = Field(description="KLayout Ruby DRC deck text using source($input) and report(title, $output)")
    layouts: list[str] = Field(description="paths of GDS files to check (in the session's work directory or the "
                               "built-in suites)", max_length=1000)


class RenderLayoutArgs(BaseModel):
    """Arguments of `drc_render_layout`."""

    layout: str = Field(description="path of a GDS file (in the session's work directory or the built-in suites)")
    png: str | None = Field(default=None, description="also write a PNG picture to this path, inside the session's "
                            "work directory")


def _read(path: str, paths: HostPaths) -> bytes:
    try:
        return paths.readable(path).read_bytes()
    except OSError as error:
        raise UserError(f"cannot read layout {path}: {error.strerror}") from error


def make_drc_tools(runner: DrcRunner | None = None, paths: HostPaths | None = None) -> list[Tool]:
    """The DRC tools sharing one runner (and thus one sandbox): deck runs happen inside the sandbox (so `agent chat
    --yes` approves them), layout rendering may write a picture on this machine. Layouts are read, and pictures
    written, through ``paths`` (default: only the built-in suites can be read and nothing written)."""
    runner = runner or DrcRunner()
    paths = paths or HostPaths()

    def run_deck(args: RunDeckArgs) -> dict:
        verdicts = runner.evaluate([(args.deck, _read(path, paths)) for path in args.layouts])
        return {path: {"status": v.status, "violations": v.counts, "categories": v.declared, "error": v.error}
                for path, v in zip(args.layouts, verdicts)}

    def render_layout(args: RenderLayoutArgs) -> str:
        gds = _read(args.layout, paths)
        if args.png:
            render_png(gds, str(paths.writable(args.png)), title=Path(args.layout).name)
        return render_text(gds)

    return [
        Tool("drc_run_deck", "Run a KLayout DRC deck on GDS layouts; violations per category for each layout.",
             RunDeckArgs, run_deck, group="drc", capabilities=("read_files", "sandbox")),
        Tool("drc_render_layout", "Describe a GDS layout as text (polygons per layer, in µm); optionally a PNG.",
             RenderLayoutArgs, render_layout, group="drc", capabilities=("read_files", "write_files")),
    ]
