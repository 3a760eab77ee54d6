"""Reading the user's lines: prompt_toolkit on a real terminal (line editing, history kept across sessions,
Tab completion of slash commands and tool names), plain ``input()`` otherwise (pipes, TERM=dumb)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable

PLAIN_TERMS = ("dumb", "unknown", "")
"""TERM values that cannot move the cursor: lines are read plainly there."""


def can_edit() -> bool:
    """True on a terminal that can edit lines (stdin and stdout are ttys and TERM is a real terminal)."""
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "") not in PLAIN_TERMS


class LineReader:
    """``read(prompt)`` returns one line; Ctrl-C raises KeyboardInterrupt and Ctrl-D EOFError, as ``input``."""

    def __init__(self, words: Callable[[], list[str]], history: Path | None, editing: bool | None = None):
        self.words = words
        self.history = history
        self.editing = can_edit() if editing is None else editing
        self._session: Any = None

    def read(self, prompt: str, complete: bool = True) -> str:
        """A line typed at ``prompt``; completion offers slash commands and tool names when ``complete``."""
        if not self.editing:
            return input(prompt)
        from prompt_toolkit.completion import WordCompleter

        completer = WordCompleter(lambda: self.words(), WORD=True) if complete else None
        return self._prompt_session().prompt(prompt, completer=completer, complete_while_typing=False)

    def _prompt_session(self) -> Any:
        if self._session is None:
            from prompt_toolkit import PromptSession
            from prompt_toolkit.history import FileHistory, InMemoryHistory

            if self.history is not None:
                self.history.parent.mkdir(parents=True, exist_ok=True)
            self._session = PromptSession(history=FileHistory(str(self.history)) if self.history else InMemoryHistory())
        return self._session
