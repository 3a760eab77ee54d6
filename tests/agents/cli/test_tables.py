from rich.console import Console

from benchmarks.report import Report

from agents.cli.tables import cell_text, rows_table


def rendered(table) -> str:
    console = Console(width=200, record=True)
    console.print(table)
    return " ".join(console.export_text().split())


def test_a_cell_shows_the_first_line_of_its_text_cut_to_the_limit():
    assert cell_text("compile error: x.cpp:3: expected ';'\n  3 | int x\n") == "compile error: x.cpp:3: expected ';' …"
    traceback = "crashed: Traceback (most recent call last):\n  File x\nValueError: bad"
    assert cell_text(traceback) == "ValueError: bad …"  # the exception, not the traceback's first line
    assert cell_text("x" * 100) == "x" * 59 + "…" and cell_text(0.123456) == "0.1235" and cell_text(None) == "—"


def test_the_table_keeps_the_columns_the_report_names_and_says_where_the_rest_is():
    rows = [{"task": "L1/relu", "status": "crashed", "reason": "timed out ...\n" + "frame\n" * 50, "cycles": 7}]
    [table] = rows_table(Report(rows=rows, columns=["task", "status", "reason"]), details="report.md")
    text = rendered(table)
    assert "L1/relu" in text and "timed out ... …" in text and "frame" not in text and "cycles" not in text
    assert "all columns and whole cells in report.md" in text


def test_markup_in_cells_is_shown_as_text():
    [table] = rows_table(Report(rows=[{"reason": "[red]x[/red] list[int]"}]))
    assert "[red]x[/red] list[int]" in rendered(table)
