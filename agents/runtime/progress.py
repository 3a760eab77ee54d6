"""Progress of long work: a rich live line on a terminal, plain lines otherwise (both on stderr)."""

from __future__ import annotations

import sys
from typing import Any, TextIO


class Progress:
    """Shows step counts, best-so-far and cost; ``update`` any of them as they change."""

    def __init__(self, label: str, *, total: int | None = None, stream: TextIO | None = None,
                 live: bool | None = None):
        self.label = label
        self.state: dict[str, Any] = {"step": 0, "total": total, "best": None, "cost": 0.0}
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty() if live is None else live
        self._display: Any = None
        self._last_line = ""

    def __enter__(self) -> "Progress":
        if self.live:
            from rich.console import Console
            from rich.live import Live

            self._display = Live(self._render(), console=Console(file=self.stream), refresh_per_second=4,
                                 transient=False)
            self._display.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def update(self, *, step: int | None = None, total: int | None = None, best: Any = None,
               cost: float | None = None) -> None:
        """Change the shown values (None leaves one as it is)."""
        for key, value in (("step", step), ("total", total), ("best", best), ("cost", cost)):
            if value is not None:
                self.state[key] = value
        if self._display is not None:
            self._display.update(self._render())
        else:
            self._print_line()

    def text(self) -> str:
        """The current state as one line."""
        step, total = self.state["step"], self.state["total"]
        parts = [self.label, f"step {step}/{total}" if total else f"step {step}"]
        if self.state["best"] is not None:
            parts.append(f"best {_short(self.state['best'])}")
        parts.append(f"cost ${self.state['cost']:.4f}")
        return " | ".join(parts)

    def _render(self) -> Any:
        from rich.progress_bar import ProgressBar
        from rich.table import Table

        grid = Table.grid(padding=(0, 1))
        total = self.state["total"]
        bar = ProgressBar(total=float(total or 1), completed=float(self.state["step"] if total else 0), width=30)
        grid.add_row(bar if total else "", self.text())
        return grid

    def _print_line(self) -> None:
        line = self.text()
        if line != self._last_line:
            print(line, file=self.stream, flush=True)
            self._last_line = line

    def close(self) -> None:
        if self._display is not None:
            self._display.stop()
            self._display = None


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."
