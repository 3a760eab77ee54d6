"""The part of an issue that describes the problem: its environment report and code-fence labels left out.

Issue templates ask for the reporter's environment (operating system, Python and package versions,
``show_versions()`` output, ``INSTALLED VERSIONS`` blocks). Those words name the build scripts and
version helpers of the repository, not the code at fault, and on the development set they put
``_show_versions.py`` and ``setup.py`` files above the gold file. A section whose heading names the
environment (a Markdown, bold, ``<summary>`` or ``Name:`` heading; in a code block only the last) is
dropped up to the next heading, and so is any line that only reports a version
(``numpy: 1.24.1``, ``Python 3.10.6``, ``- Sphinx version: 5.0``). A code fence keeps its code and
loses its label: every ```` ```python ```` would otherwise add the word "python", which the same
version helpers are full of.
"""

from __future__ import annotations

import keyword
import re

_HEADING = re.compile(r"^\s*(?:#{1,6}\s*(?P<hash>.+?)\s*#*|\*\*(?P<bold>[^*]+)\*\*:?|<summary>(?P<summary>.*?)</summary>"
                      r"|(?P<colon>[A-Z][\w ./-]{0,40}):)\s*$")
_ENVIRONMENT = re.compile(r"\b(?:versions?|environment|system|operating system|os|platform|installation|"
                          r"installed|dependencies|deps|blas)\b", re.I)
_VERSION_LINE = re.compile(r"^\s*[-*]?\s*(?P<key>[A-Za-z][\w .()/-]{0,40}?)(?::\s*|\s+)v?\d+\.\d+[\w.+-]*\s*(?:[(\[].*)?$")


def drop_environment(issue: str) -> str:
    """``issue`` without its environment sections and version lines (the rest kept, in order)."""
    kept: list[str] = []
    skipping = fenced = False
    for line in issue.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            line = "```"
        heading = _heading(line, fenced)
        if heading is not None:
            skipping = bool(_ENVIRONMENT.search(heading))
            if skipping:
                continue
        if skipping or _reports_version(line):
            continue
        kept.append(line)
    return "\n".join(kept)


def _heading(line: str, fenced: bool) -> str | None:
    """The text of a Markdown, bold, ``<summary>`` or ``Name:`` heading line, or None (in a code block,
    ``# ...`` is a comment)."""
    match = _HEADING.match(line)
    if match is None or (fenced and match["hash"] is not None):
        return None
    return next(text for text in match.groups() if text is not None)


def _reports_version(line: str) -> bool:
    """Whether ``line`` only names something and its version (``return 2.0`` is code, not a report)."""
    match = _VERSION_LINE.match(line)
    return match is not None and not keyword.iskeyword(match["key"].split()[0])
