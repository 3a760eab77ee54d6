"""The preprocessing directives of a C, C++ or CUDA source, found as a compiler could find them.

Translation phases 1 to 3 as far as directives depend on them: trigraphs, line splices, comments and
literals. Compilers differ on two of them (trigraphs exist only under some ``-std`` modes, and GCC but
not every front end splices a backslash followed by spaces), so every combination is read and the
directives of all of them are returned: a directive that one compiler would see is never missed.
"""

from __future__ import annotations

import itertools
import re

TRIGRAPHS = {"??=": "#", "??/": "\\", "??'": "^", "??(": "[", "??)": "]", "??!": "|", "??<": "{", "??>": "}",
             "??-": "~"}
TRIGRAPH = re.compile(r"\?\?[=/'()!<>-]")
SPLICES = (re.compile(r"\\\r?\n"), re.compile(r"\\[ \t\f\v]*\r?\n"))
BLANKED = re.compile(r"""
    //[^\n]*                                              # a line comment
  | /\*.*?(?:\*/|\Z)                                      # a block comment (an unterminated one runs to the end)
  | (?<![\w])(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(.*?(?:\)\1"|\Z)   # a raw string literal
  | "(?:\\.|[^"\\\n])*"?                                   # a string literal (never past its line)
  | '(?:\\.|[^'\\\n])*'?                                   # a character literal (never past its line)
""", re.DOTALL | re.VERBOSE)
DIRECTIVE = re.compile(r"^[ \t\f\v]*(?:#|%:)[ \t\f\v]*([A-Za-z_]\w*|[0-9]+)?[^\n]*", re.MULTILINE)


def directives(source: str) -> list[tuple[str, str]]:
    """(name, text) of every directive under any reading of ``source``; a GNU line marker (``# 12 "f"``)
    has its number as name, a null directive ''. Comments and literals are read as blanks that keep their
    line breaks, so a directive after a multi-line comment counts as well."""
    found: dict[tuple[str, str], None] = {}
    for trigraphs, splice in itertools.product((False, True), SPLICES):
        text = TRIGRAPH.sub(lambda m: TRIGRAPHS[m.group(0)], source) if trigraphs else source
        text = BLANKED.sub(_blank, splice.sub("", text))
        for match in DIRECTIVE.finditer(text):
            found[(match.group(1) or "", match.group(0).strip())] = None
    return list(found)


def line_controls(source: str) -> list[str]:
    """The ``#line`` directives and GNU line markers of ``source`` (they rename the lines that follow)."""
    return [text for name, text in directives(source) if name == "line" or name[:1].isdigit()]


def _blank(match: re.Match[str]) -> str:
    return " " + "\n" * match.group(0).count("\n")
