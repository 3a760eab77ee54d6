"""Progress of long work on stderr: a ``rich.progress`` bar on a terminal, plain lines otherwise.

Both show the count (of steps, attempts, ...) against a total, which may be an estimate (shown as
``~N``), the elapsed time, an estimate of the time left, the best result so far and the cost. Off a
terminal a line is printed whenever the count or the best changes, and at least every
``heartbeat_s`` seconds while nothing does, so a log never falls silent for long.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, Callable, TextIO

HEARTBEAT_S = 10.0


class Progress:
    """Shows a count against a total, elapsed time, time left, best-so-far and cost; ``update`` any."""

    def __init__(self, label: str, *, total: int | None = None, unit: str = "step", estimated: bool = False,
                 stream: TextIO | None = None, live: bool | None = None, heartbeat_s: float = HEARTBEAT_S,
                 clock: Callable[[], float] = time.monotonic):
        self.label, self.unit, self.estimated = label, unit, estimated
        self.state: dict[str, Any] = {"step": 0, "total": total, "best": None, "cost": 0.0}
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty() if live is None else live
        self.heartbeat_s, self.clock = heartbeat_s, clock
        self.started = clock()
        self._lock = threading.RLock()
        self._bar: Any = None
        self._bar_task: Any = None
        self._last_key: tuple = ()
        self._last_print = self.started
        self._stop = threading.Event()
        self._beater: threading.Thread | None = None

    def __enter__(self) -> "Progress":
        if self.live:
            self._start_bar()
        elif self.heartbeat_s > 0:
            self._beater = threading.Thread(target=self._beat_loop, name="progress-heartbeat", daemon=True)
            self._beater.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def update(self, *, step: int | None = None, total: int | None = None, best: Any = None,
               cost: float | None = None) -> None:
        """Change the shown values (None leaves one as it is); safe from any thread."""
        with self._lock:
            for key, value in (("step", step), ("total", total), ("best", best), ("cost", cost)):
                if value is not None:
                    self.state[key] = value
            if self._bar is not None:
                self._refresh_bar()
            elif self._changed():
                self._print_line()

    def elapsed_s(self) -> float:
        return self.clock() - self.started

    def remaining_s(self) -> float | None:
        """Time left at the pace so far (None until one step is done or without a total)."""
        step, total = self.state["step"], self.state["total"]
        if not total or not step:
            return None
        return max(0.0, self.elapsed_s() / step * (total - step))

    def text(self) -> str:
        """The current state as one line."""
        parts = [self.label, self._count()]
        if self.state["best"] is not None:
            parts.append(f"best {_short(self.state['best'])}")
        left = self.remaining_s()
        timing = f"{_clock(self.elapsed_s())} elapsed"
        parts.append(timing + (f", ~{_clock(left)} left" if left is not None else ""))
        parts.append(f"cost ${self.state['cost']:.4f}")
        return " | ".join(parts)

    def beat(self) -> None:
        """Print the line again when nothing was printed for ``heartbeat_s`` (off a terminal)."""
        with self._lock:
            if self._bar is None and self.clock() - self._last_print >= self.heartbeat_s:
                self._print_line()

    def close(self) -> None:
        self._stop.set()
        if self._beater is not None:
            self._beater.join(timeout=1.0)
            self._beater = None
        with self._lock:
            if self._bar is not None:
                self._bar.stop()
                self._bar = None

    def _changed(self) -> bool:
        key = (self.state["step"], self.state["total"], str(self.state["best"]), round(self.state["cost"], 4))
        if key == self._last_key:
            return False
        self._last_key = key
        return True

    def _print_line(self) -> None:
        print(self.text(), file=self.stream, flush=True)
        self._last_print = self.clock()

    def _beat_loop(self) -> None:
        while not self._stop.wait(min(1.0, self.heartbeat_s)):
            self.beat()

    def _start_bar(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress as Bar, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        self._bar = Bar(TextColumn("{task.description}"), BarColumn(bar_width=30), TextColumn("{task.fields[count]}"),
                        TimeElapsedColumn(), TextColumn("~"), TimeRemainingColumn(), TextColumn("{task.fields[extra]}"),
                        console=Console(file=self.stream), refresh_per_second=4, transient=False)
        self._bar_task = self._bar.add_task(self.label, total=self.state["total"], count="", extra="")
        self._bar.start()
        self._refresh_bar()

    def _refresh_bar(self) -> None:
        extra = " | ".join(([f"best {_short(self.state['best'])}"] if self.state["best"] is not None else [])
                           + [f"cost ${self.state['cost']:.4f}"])
        self._bar.update(self._bar_task, completed=self.state["step"], total=self.state["total"], count=self._count(),
                         extra=extra)

    def _count(self) -> str:
        step, total = self.state["step"], self.state["total"]
        return f"{self.unit} {step}/{'~' if self.estimated else ''}{total}" if total else f"{self.unit} {step}"


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h{rest // 60:02d}m{rest % 60:02d}s" if hours else f"{rest // 60}m{rest % 60:02d}s"


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."
