"""Reading the model's replies: a kernel solution in a code block, and an attempt summary."""

from __future__ import annotations

import ast
import re

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)```", re.DOTALL)


class MalformedReply(ValueError):
    """The reply holds no usable kernel; the message says what to fix."""


def parse_kernel(reply: str) -> str:
    """The solution source: the last code block that defines ``class ModelNew`` and is valid Python."""
    if not reply or not reply.strip():
        raise MalformedReply("the reply was empty; answer with one ```python code block defining class ModelNew")
    blocks = [body for _lang, body in _FENCE.findall(reply)] or [reply]
    with_model = [b for b in blocks if re.search(r"^\s*class\s+ModelNew\b", b, re.MULTILINE)]
    if not with_model:
        raise MalformedReply("no code block defines `class ModelNew(nn.Module)`; answer with one ```python block "
                             "holding the complete solution file")
    source = with_model[-1].strip() + "\n"
    try:
        ast.parse(source)
    except SyntaxError as error:
        raise MalformedReply(f"the solution is not valid Python: line {error.lineno}: {error.msg}") from None
    return source


def parse_summary(reply: str) -> tuple[str, str | None]:
    """(lesson, best practice or None) from ``LESSON: ...`` and optional ``PRACTICE: ...`` lines."""
    lesson = _field(reply, "LESSON")
    if not lesson:
        raise MalformedReply("start the summary with a line 'LESSON: <one or two sentences>'")
    practice = _field(reply, "PRACTICE")
    return lesson, (practice if practice and practice.lower() not in ("none", "n/a", "-") else None)


def _field(reply: str, name: str) -> str:
    match = re.search(rf"^\W*{name}\W*:\s*(.+?)(?=^\W*[A-Z]+\W*:|\Z)", reply or "", re.MULTILINE | re.DOTALL)
    return " ".join(match.group(1).split()).strip("*_ ") if match else ""
