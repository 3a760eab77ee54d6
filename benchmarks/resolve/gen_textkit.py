"""The ``textkit`` repository of the generated resolution benchmark: text helpers with six planted bugs."""

from __future__ import annotations

from benchmarks.resolve.gen_types import Bug

CASE = '''"""Identifier case conversions."""
import re


def words(name):
    """Split an identifier or phrase into lower-case words."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\\1 \\2", name)
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]


def snake_case(name):
    """``HelloWorld`` -> ``hello_world``."""
    return "_".join(words(name))


def camel_case(name):
    """``hello_world`` -> ``helloWorld``."""
    parts = words(name)
    return "".join(p.capitalize() for p in parts)


def title_case(text):
    """Capitalise every word of a phrase."""
    return " ".join(w.capitalize() for w in words(text))
'''

SLUG = '''"""URL slugs."""
import re
import unicodedata


def slugify(text, sep="-"):
    """Lower-case ASCII words of ``text`` joined by ``sep``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^a-z0-9]", sep, ascii_text.lower())
    return cleaned.strip(sep)
'''

WRAP = '''"""Line wrapping and truncation."""


def wrap(text, width):
    """Greedy word wrap: lines of at most ``width`` characters (a longer word gets a line of its own)."""
    lines, current = [], ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if len(candidate) < width or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def truncate(text, limit, ellipsis="..."):
    """``text`` cut to at most ``limit`` characters, ending in ``ellipsis`` when it was cut."""
    if len(text) <= limit:
        return text
    return text[:limit] + ellipsis
'''

STATS = '''"""Word statistics."""
from collections import Counter


def tokens(text):
    return [w.strip(".,;:!?\\"'()") for w in text.split() if w.strip(".,;:!?\\"'()")]


def word_count(text):
    """How many words ``text`` holds."""
    return len(tokens(text))


def top_words(text, n=3):
    """The ``n`` most frequent words with their counts, most frequent first, ties in alphabetical order."""
    counts = Counter(tokens(text))
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:n]
'''

TABLE = '''"""Plain-text tables."""


def format_table(header, rows):
    """Rows under a header, columns padded to their widest cell and separated by two spaces."""
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(header))]
    lines = ["  ".join(str(cell).ljust(w) for cell, w in zip(header, widths)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    return "\\n".join(lines)
'''

TESTS = {
    "tests/test_case.py": '''from textkit.case import snake_case, title_case, words


def test_words_split_camel():
    assert words("parseHTTPResponse2") == ["parse", "httpresponse2"]


def test_snake_case():
    assert snake_case("HelloWorld") == "hello_world"


def test_title_case():
    assert title_case("the quick fox") == "The Quick Fox"
''',
    "tests/test_slug.py": '''from textkit.slug import slugify


def test_slugify_basic():
    assert slugify("Hello World") == "hello-world"


def test_slugify_keeps_digits():
    assert slugify("Release 2 notes") == "release-2-notes"


def test_slugify_accents():
    assert slugify("Caf\\u00e9") == "cafe"
''',
    "tests/test_wrap.py": '''from textkit.wrap import truncate, wrap


def test_wrap_short_text():
    assert wrap("one two", 20) == ["one two"]


def test_wrap_long_word():
    assert wrap("extraordinarily long", 5) == ["extraordinarily", "long"]


def test_truncate_short():
    assert truncate("short", 10) == "short"
''',
    "tests/test_stats.py": '''from textkit.stats import top_words, word_count


def test_word_count():
    assert word_count("Hello, world! Hello.") == 3


def test_top_words_order():
    assert top_words("b a b c a b", 2) == [("b", 3), ("a", 2)]
''',
}

BASE = {"README.md": "# textkit\nSmall text helpers.\n", "textkit/__init__.py": '"""Text helpers."""\n',
        "textkit/case.py": CASE, "textkit/slug.py": SLUG, "textkit/wrap.py": WRAP, "textkit/stats.py": STATS,
        **TESTS}
TABLE_TEST = '''from textkit.table import format_table


def test_table_body_widths():
    assert format_table(["n", "v"], [["alpha", 1], ["b", 22]]).splitlines()[2] == "alpha  1"
'''
COMMITS = [("initial", "2024-01-10T00:00:00", BASE),
           ("add tables", "2024-02-10T00:00:00", {"textkit/table.py": TABLE, "tests/test_table.py": TABLE_TEST})]

BUGS = [
    Bug("textkit-1", 0, "textkit/slug.py", "re.sub(r\"[^a-z0-9]\", sep,", "re.sub(r\"[^a-z0-9]+\", sep,",
        "slugify leaves repeated separators\n\n`slugify('Hello   World')` gives `hello---world`; runs of spaces or "
        "punctuation should become a single separator: `hello-world`.", "tests/test_slug.py",
        "\n\ndef test_slugify_collapses_runs():\n    assert slugify(\"Hello   World!!\") == \"hello-world\"\n",
        ["test_slugify_collapses_runs"]),
    Bug("textkit-2", 0, "textkit/wrap.py", "return text[:limit] + ellipsis",
        "return text[:max(limit - len(ellipsis), 0)] + ellipsis",
        "truncate returns strings longer than the limit\n\n`truncate('abcdefghij', 6)` returns `abcdef...` (9 "
        "characters). The result, ellipsis included, should never be longer than `limit`: `abc...`.",
        "tests/test_wrap.py", "\n\ndef test_truncate_fits_limit():\n    assert truncate(\"abcdefghij\", 6) == "
        "\"abc...\"\n    assert len(truncate(\"x\" * 50, 10)) == 10\n",
        ["test_truncate_fits_limit"]),
    Bug("textkit-3", 0, "textkit/case.py", 'return "".join(p.capitalize() for p in parts)',
        'return parts[0] + "".join(p.capitalize() for p in parts[1:]) if parts else ""',
        "camel_case capitalises the first word\n\n`camel_case('hello_world')` returns `HelloWorld`; camelCase "
        "starts lower-case: `helloWorld`.", "tests/test_case.py",
        "\n\ndef test_camel_case():\n    from textkit.case import camel_case\n\n    assert camel_case(\"hello_world\")"
        " == \"helloWorld\"\n    assert camel_case(\"\") == \"\"\n", ["test_camel_case"]),
    Bug("textkit-4", 0, "textkit/stats.py", "counts = Counter(tokens(text))",
        "counts = Counter(word.lower() for word in tokens(text))",
        "top_words counts 'The' and 'the' as different words\n\n`top_words('The cat saw the dog', 1)` gives "
        "`[('The', 1)]` instead of `[('the', 2)]`. Counting should ignore case.", "tests/test_stats.py",
        "\n\ndef test_top_words_ignores_case():\n    assert top_words(\"The cat saw the dog\", 1) == [(\"the\", 2)]\n",
        ["test_top_words_ignores_case"]),
    Bug("textkit-5", 0, "textkit/wrap.py", "if len(candidate) < width or not current:",
        "if len(candidate) <= width or not current:",
        "wrap breaks lines that fit exactly\n\n`wrap('aa bb', 5)` returns `['aa', 'bb']` although `aa bb` is 5 "
        "characters and fits a width of 5.", "tests/test_wrap.py",
        "\n\ndef test_wrap_exact_fit():\n    assert wrap(\"aa bb cc\", 5) == [\"aa bb\", \"cc\"]\n",
        ["test_wrap_exact_fit"]),
    Bug("textkit-6", 1, "textkit/table.py", "widths = [max(len(str(row[i])) for row in rows)",
        "widths = [max(len(str(row[i])) for row in [header, *rows])",
        "format_table ignores the header when sizing columns\n\nWith a header wider than every cell the rule and "
        "the rows are narrower than the header: `format_table(['name', 'v'], [['a', 1]])` puts `-` under `name` "
        "and the `1` under the middle of it.", "tests/test_table.py",
        "\n\ndef test_table_header_width():\n    lines = format_table([\"name\", \"v\"], [[\"a\", 1]]).splitlines()\n"
        "    assert lines[1:] == [\"----  -\", \"a     1\"]\n", ["test_table_header_width"]),
]

BREAKS_P2P = ("textkit-1", "textkit/slug.py", "re.sub(r\"[^a-z0-9]\", sep,", "re.sub(r\"[^a-z]+\", sep,")
"""A patch that fixes textkit-1's FAIL_TO_PASS test but drops digits (``test_slugify_keeps_digits`` fails)."""
