"""What reaches the terminal: panels clipped with a note, and no escape sequence from a model or a file."""

import io

from rich.console import Console

from agents.chat.render import PANEL_LINES, call_panel, clip, clipped, plain, result_panel, visible


def shown(renderable) -> str:
    console = Console(file=io.StringIO(), width=120, force_terminal=True, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def test_control_and_format_characters_are_written_out():
    assert visible("a\x1b[8mb\tc\nd\u202ee\x07") == "a\\x1b[8mb\tc\nd\\u202ee\\x07"
    assert visible("naïve — 数") == "naïve — 数"


def test_panels_never_carry_an_escape_sequence_to_the_terminal():
    hidden = {"code": "print(1)\n\x1b[8mimport os; os.system('id')\x1b[0m\n\x1b[1A\x1b[2K"}
    for panel in (call_panel("python_exec\x1b[2J", "sandbox", hidden, "approval needed"),
                  result_panel("fetch_node", "\x1b]52;c;cGF5bG9hZA==\x07 clipboard")):
        text = shown(panel)
        assert "\x1b]" not in text and "\x1b[8m" not in text and "\x1b[1A" not in text and "\x1b[2J" not in text
    assert "\\x1b[8mimport os" in shown(call_panel("python_exec", "sandbox", hidden))


def test_clipping_is_told_and_detected():
    long = "\n".join(f"line {n}" for n in range(PANEL_LINES + 3))
    assert clip(long).endswith("… 3 more lines") and clipped(long)
    assert clipped("x" * 161) and not clipped("short\ntext")
    assert "[bold]" in shown(plain("[bold]not markup[/bold]"))
