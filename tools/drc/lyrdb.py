"""Parse a KLayout report database (.lyrdb XML): violations per category and declared categories."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import dataclass, field


class ReportParseError(ValueError):
    """The report database is not valid lyrdb XML."""


@dataclass
class ReportDatabase:
    """What one deck reported on one layout."""

    counts: dict[str, int] = field(default_factory=dict)
    """Violations per category (categories without items are absent)."""
    declared: list[str] = field(default_factory=list)
    """Every category the deck declared, with or without items, in order."""

    def categories(self) -> set[str]:
        """Every category the deck emitted: declared or carrying items."""
        return set(self.declared) | set(self.counts)

    def unknown(self, allowed: set[str]) -> set[str]:
        """Emitted categories outside ``allowed``."""
        return self.categories() - allowed


def parse_lyrdb(text: str | bytes) -> ReportDatabase:
    """Parse lyrdb XML text; raise :class:`ReportParseError` when it is not a report database."""
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise ReportParseError(f"report database is not XML: {error}") from error
    if root.tag != "report-database":
        raise ReportParseError(f"report database root is <{root.tag}>, expected <report-database>")
    declared = _declared(root.find("categories"), prefix="")
    counts: Counter[str] = Counter()
    for item in root.iterfind("items/item"):
        name = _item_category(item.findtext("category", default=""))
        counts[name] += max(1, int(item.findtext("multiplicity", default="1") or 1))
    return ReportDatabase(counts=dict(counts), declared=declared)


def _declared(node: ElementTree.Element | None, prefix: str) -> list[str]:
    """Category names, nested ones joined with dots as KLayout does."""
    if node is None:
        return []
    names: list[str] = []
    for category in node.findall("category"):
        name = prefix + (category.findtext("name") or "")
        names.append(name)
        names += _declared(category.find("categories"), prefix=name + ".")
    return names


def _item_category(text: str) -> str:
    """An item's category path such as ``'m1.width'`` or ``'outer'.'inner'`` as a plain dotted name."""
    text = text.strip()
    if not text.startswith("'"):
        return text
    parts, current, quoted, index = [], "", False, 0
    while index < len(text):
        char = text[index]
        if char == "'" and quoted and text[index + 1:index + 2] == "'":
            current += "'"
            index += 1
        elif char == "'":
            quoted = not quoted
        elif char == "." and not quoted:
            parts.append(current)
            current = ""
        else:
            current += char
        index += 1
    return ".".join(parts + [current])
