"""How a chat session looks: streamed tokens, compact panels for tool calls and results, tables."""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any

PANEL_LINES = 14
PANEL_LINE_CHARS = 160
PIPE_WIDTH = 200


def make_console() -> Any:
    """A console on stdout: the terminal's width on a terminal, wide lines when piped."""
    from rich.console import Console

    return Console(highlight=False, width=None if sys.stdout.isatty() else PIPE_WIDTH)


class TokenPrinter:
    """Writes a reply's text as it arrives; :meth:`finish` ends the line if anything was written."""

    def __init__(self, stream: Any = None):
        self.stream = stream or sys.stdout
        self.written = False

    def __call__(self, text: str) -> None:
        if not self.written:
            self.stream.write("assistant: ")
            self.written = True
        self.stream.write(text)
        self.stream.flush()

    def finish(self) -> None:
        if self.written:
            self.stream.write("\n")
            self.stream.flush()
        self.written = False


def visible(text: str) -> str:
    """``text`` with every control and format character but newline and tab written out as an escape (``\\x1b``).
    A model's arguments or a file's content must not reach the terminal as escape sequences: ``ESC[8m`` hides the
    code waiting for approval, ``ESC[1A ESC[2K`` erases lines above, and U+202E reverses the text that follows."""
    return "".join(char if char in "\n\t" or unicodedata.category(char) not in ("Cc", "Cf")
                   else char.encode("unicode_escape").decode("ascii") for char in text)


def plain(text: str) -> Any:
    """``text`` for the console as it is: no rich markup read into it, control characters written out."""
    from rich.text import Text

    return Text(visible(text))


def clipped(text: str, lines: int = PANEL_LINES) -> bool:
    """Whether :func:`clip` leaves part of ``text`` out."""
    rows = text.splitlines()
    return len(rows) > lines or any(len(row) > PANEL_LINE_CHARS for row in rows)


def clip(text: str, lines: int = PANEL_LINES) -> str:
    """At most ``lines`` lines of at most PANEL_LINE_CHARS characters, saying how much was left out; control
    characters written out (:func:`visible`)."""
    rows = visible(text).splitlines() or [""]
    shown = [row if len(row) <= PANEL_LINE_CHARS else row[:PANEL_LINE_CHARS] + "…" for row in rows[:lines]]
    if len(rows) > lines:
        shown.append(f"… {len(rows) - lines} more lines")
    return "\n".join(shown)


def arguments_text(arguments: dict[str, Any]) -> str:
    """Arguments one per line; multi-line strings (code, commands) shown as they are."""
    parts = []
    for key, value in arguments.items():
        if isinstance(value, str) and "\n" in value:
            parts.append(f"{key}:\n{value}")
        else:
            parts.append(f"{key}: {json.dumps(value) if not isinstance(value, str) else value}")
    return "\n".join(parts) or "(no arguments)"


def call_panel(name: str, group: str, arguments: dict[str, Any], note: str = "") -> Any:
    from rich.panel import Panel
    from rich.text import Text

    title = Text(visible(f"tool call · {name} [{group}]" + (f" · {note}" if note else "")))
    return Panel(Text(clip(arguments_text(arguments))), title=title, title_align="left", border_style="cyan",
                 expand=False)


def result_panel(name: str, content: str) -> Any:
    from rich.panel import Panel
    from rich.text import Text

    failed = content.startswith(("error:", "not run:", "cancelled"))
    return Panel(Text(clip(content)), title=Text(visible(f"result · {name}")), title_align="left",
                 border_style="red" if failed else "green", expand=False)


def tools_table(groups: dict[str, list[Any]], modes: dict[str, str], unavailable: dict[str, str]) -> Any:
    from rich.table import Table

    table = Table("group", "tool", "approval", "what it does", title="tools")
    for group, tools in groups.items():
        for tool in tools:
            table.add_row(group, tool.name, modes[tool.name], tool.description.splitlines()[0][:90])
    for module, reason in unavailable.items():
        table.add_row("—", module, "unavailable", reason[:90])
    return table


def key_value_table(title: str, values: dict[str, Any]) -> Any:
    from rich.table import Table

    table = Table(title=title, show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value")
    for key, value in values.items():
        table.add_row(str(key), "—" if value is None else str(value))
    return table


def usage_line(spent: Any, thread: Any, model: str) -> str:
    """Tokens and cost of the last reply and of the thread (``Totals`` before/after differences); a model the
    price table does not know shows 'unknown', never $0."""
    def cost(totals: Any) -> str:
        if totals.unpriced_calls:
            return "unknown"
        return f"${totals.cost_usd:.6f}" if totals.cost_usd < 0.01 else f"${totals.cost_usd:.4f}"

    line = (f"tokens: {spent.prompt_tokens:,} sent, {spent.completion_tokens:,} received · cost: {cost(spent)} "
            f"this reply, {cost(thread)} this thread")
    return line + (f" (no price for {model})" if spent.unpriced_calls else "")
