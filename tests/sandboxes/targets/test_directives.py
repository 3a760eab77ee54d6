"""Directives as a compiler could read them: every reading of trigraphs and splices, comments and literals blank."""

import pytest

from sandboxes.targets.directives import directives, line_controls


@pytest.mark.parametrize("source", [
    '#line 1 "x.h"\nint a;',
    'int a;\n# 7 "/usr/include/f.h" 1 3 4\nint b;',
    '%:line 3 "y"\n',
    '/* a\n b */ # /* c */ line 4 "z"\n',
    '#li\\\nne 5 "w"\n',
    '#li\\  \nne 5 "w"\n',
    '??=line 6 "v"\n',
    '// a comment that ends in a trigraph splice ??/\n#line 7 "u"\n',
    'auto s = xR"(";\n#line 1 "q"\n',
    'auto s = u8x"/*";\n#line 1 "q"\n',
    'int a = 1\'000\'000;\n#line 2 "p"\n',
], ids=["line", "gnu-marker", "digraph", "comments", "splice", "splice-with-spaces", "trigraph",
        "splice-only-with-trigraphs", "not-a-raw-string", "string-after-identifier", "digit-separators"])
def test_every_way_of_writing_a_line_directive_is_found(source):
    assert line_controls(source)


@pytest.mark.parametrize("source", [
    'const char* s = "#line 1";\n',
    'auto s = R"x(\n#line 1 "q"\n)x";\n',
    '// #line 1 "q"\n/* \n#line 2 "r"\n*/\n',
    '#include <cstdio>\n#define X 1\n#pragma omp parallel for\n',
], ids=["in-a-string", "in-a-raw-string", "in-comments", "other-directives"])
def test_what_is_not_a_line_directive_is_not_reported(source):
    assert line_controls(source) == []


def test_directives_are_named():
    names = [name for name, _ in directives('#include <cmath>\n  #  define X 1\n#\n')]
    assert names == ["include", "define", ""]
