"""Terminal tables of reports: the columns that matter, one short line per cell (the whole text stays in
the report files)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from benchmarks.report import Report

if TYPE_CHECKING:
    from agents.runtime.run import Run

CELL_CHARS = 60
"""Longest cell text on a terminal; longer text is cut with an ellipsis."""


def report_table(report: Report, run: "Run | None" = None) -> Any:
    """The summary as a two-column table."""
    from rich.table import Table
    from rich.text import Text

    title = report.title or (f"{run.agent} run {run.id}" if run else "report")
    table = Table(title=title, show_header=False)
    table.add_column("key", style="bold", no_wrap=True)
    table.add_column("value")
    for key, value in report.summary.items():
        table.add_row(Text(str(key)), Text(cell_text(value, limit=200)))
    return table


def rows_table(report: Report, limit: int = 200, details: str | None = None) -> list[Any]:
    """The rows as a table (none when there are no rows): ``report.columns`` if set, the first line of
    each cell, the first ``limit`` rows. ``details`` names the file that holds everything."""
    from rich.table import Table
    from rich.text import Text

    if not report.rows:
        return []
    columns = table_columns(report)
    notes = [f"{len(report.rows)} rows" + (f", first {limit} shown" if len(report.rows) > limit else "")]
    if details and (len(columns) < len(all_columns(report.rows)) or _cut(report, columns)):
        notes.append(f"all columns and whole cells in {details}")
    table = Table(caption="; ".join(notes))
    for column in columns:
        table.add_column(column, no_wrap=column in columns[:1])
    for row in report.rows[:limit]:
        table.add_row(*(Text(cell_text(row.get(column))) for column in columns))
    return [table]


def all_columns(rows: list[dict[str, Any]]) -> list[str]:
    columns: list[str] = []
    for row in rows:
        columns += [key for key in row if key not in columns]
    return columns


def table_columns(report: Report) -> list[str]:
    """The columns a terminal shows: those the report names (that occur), else all."""
    present = all_columns(report.rows)
    if report.columns is None:
        return present
    return [column for column in report.columns if column in present]


def _cut(report: Report, columns: list[str]) -> bool:
    return any(cell_text(row.get(c)) != _plain(row.get(c)) for row in report.rows for c in columns)


def _plain(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else "—" if value is None else str(value)


def cell_text(value: Any, limit: int = CELL_CHARS) -> str:
    """A value as table text: floats to 4 significant digits, None as a dash, text to its headline (see
    :func:`headline`) and at most ``limit`` characters; ``…`` marks what was left out."""
    text = _plain(value).strip()
    first = headline(text)
    if len(first) > limit:
        return first[:limit - 1] + "…"
    return first + (" …" if first != text else "")


def headline(text: str) -> str:
    """The line that says most: the exception line of a Python traceback (its last line), else the first."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return text
    if any("Traceback (most recent call last)" in line for line in lines):
        return lines[-1].strip()
    return lines[0]
