"""What an issue points at in the repository: traceback frames, file paths, and the code its examples use.

The issue's example code is parsed and resolved through the graph like a module of the repository
(its imports, its calls, the classes it constructs), so ``from sklearn.linear_model import
LogisticRegressionCV; LogisticRegressionCV(...).fit(X, y)`` points at ``LogisticRegressionCV.fit``.
Code-like names in the prose (``QuerySet.only``, ``select_related``, ``method_decorator()``) are
resolved the same way, and a bare name that does not resolve spreads its weight over the units of
that name. A pointer is evidence, not an answer: each is weighted by how rare its name is in the
code (BM25's idf, divided by its maximum), so an API that every issue quotes (``Symbol``,
``Model``) weighs little. Traceback frames and file paths name places (:meth:`MentionFinder.places`);
the code an issue uses or quotes (:meth:`MentionFinder.names`) is where its walk starts, not an answer.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict

from agents.rpg.parse import parse_file
from agents.rpg.resolve import Resolver, SymbolIndex
from memory.rpg.bm25 import tokenize
from memory.rpg.graph import NodeKind
from tools.rpg.workspace import UNIT_KINDS, RPGWorkspace

ISSUE_FILE = "<issue>"
ISSUE_MODULE = "__issue__"
_FENCE = re.compile(r"```[^\n]*\n(.*?)(?:```|$)", re.S)
_PROMPT = re.compile(r"^\s*(?:>>>|\.\.\.|In \[\d+\]:)\s?(.*)$", re.M)
_FRAME = re.compile(r'File "([^"]+?\.py)", line \d+, in ([A-Za-z_]\w*)')
_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)+[\w.-]+\.py)\b")
_INLINE = re.compile(r"`([^`\n]+)`")
_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w(]*\.py)")
_WORD = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?=\s*\()|(?<![\w.])(?:[a-z]\w*_\w+|_\w+|[A-Z][a-z0-9]+[A-Z]\w*)")


def example_code(issue: str) -> str:
    """The issue's Python: fenced blocks, prompt lines and inline code, whole when they parse, else
    line by line."""
    blocks = _FENCE.findall(issue) + ["\n".join(_PROMPT.findall(issue))] + _INLINE.findall(issue)
    kept = []
    for block in blocks:
        lines = [m.group(1) if (m := _PROMPT.match(line)) else line for line in block.splitlines()]
        text = "\n".join(lines)
        if _parses(text):
            kept.append(text)
        else:
            kept += [line.strip() for line in lines if line.strip() and _parses(line.strip())]
    return "\n".join(kept)


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def prose_names(issue: str) -> list[str]:
    """Code-like names in the text: inline code, dotted names, calls, snake_case and CamelCase words."""
    names = [re.sub(r"\(.*", "", span).strip() for span in _INLINE.findall(issue)]
    names += _DOTTED.findall(issue) + _WORD.findall(issue)
    return [n for n in dict.fromkeys(names) if re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", n)]


class MentionFinder:
    """Resolves an issue's pointers against one graph state (build once per commit, use per issue)."""

    def __init__(self, workspace: RPGWorkspace, symbols: SymbolIndex | None = None):
        """``symbols``: the graph's current symbol tables, when at hand (a build's or update's)."""
        self.workspace = workspace
        self.rpg = workspace.rpg
        self.resolver = Resolver(self.rpg, symbols)
        self.by_name: dict[str, list[str]] = defaultdict(list)
        for node in sorted(self.rpg.nodes(*UNIT_KINDS), key=lambda n: n.id):
            self.by_name[node.name].append(node.id)
        self.files = sorted(n.id for n in self.rpg.nodes(NodeKind.FILE))
        self.depth = max((f.count("/") + 1 for f in self.files), default=0)
        """The most parts a repository path has: a longer suffix of a path in the issue cannot be a file."""
        self.packages = sorted({n.extra["module"].split(".")[0] for n in self.rpg.nodes(NodeKind.FILE)
                                if n.extra["module"]})

    def weight(self, name: str) -> float:
        """Rarity of a name in the code: idf of its whole-identifier token over the maximum idf."""
        tokens = tokenize(name.rsplit(".", 1)[-1])
        bm25 = self.workspace.bm25
        return bm25.idf(tokens[0]) / bm25.max_idf() if tokens else 0.0

    def places(self, issue: str, frame_decay: float = 1.0) -> dict[str, float]:
        """Node id → weight in (0, 1] for the places the issue names: traceback frames and file paths.

        The innermost frame (the last one printed, where the error was raised) weighs fully; each file
        further out weighs ``frame_decay`` times the next one in (a file named in prose weighs fully)."""
        found: dict[str, float] = {}

        def add(node_id: str, weight: float) -> None:
            found[node_id] = max(found.get(node_id, 0.0), weight)

        frames = [(file_id, function) for path, function in _FRAME.findall(issue)
                  if (file_id := self.file_for(path)) is not None]
        outward = list(dict.fromkeys(file_id for file_id, _ in reversed(frames)))
        for file_id, function in frames:
            factor = frame_decay ** outward.index(file_id)
            add(file_id, factor)
            for unit in self.units_named(function, file_id):
                add(unit, factor * self.weight(function))
        for path in _PATH.findall(issue):
            if (file_id := self.file_for(path)) is not None:
                add(file_id, 1.0)
        return found

    def file_for(self, path: str) -> str | None:
        """The repository file a (possibly absolute, site-packages) path ends with, longest match first."""
        parts = path.replace("\\", "/").split("/")
        for start in range(max(len(parts) - self.depth, 0), len(parts)):
            candidate = "/".join(parts[start:])
            if candidate in self.rpg and self.rpg.node(candidate).kind is NodeKind.FILE:
                return candidate
        return None

    def units_named(self, name: str, file_id: str | None = None) -> list[str]:
        return [u for u in self.by_name.get(name, []) if file_id is None or self.rpg.node(u).path == file_id]

    def names(self, issue: str) -> dict[str, float]:
        """Node id → weight for the code the issue uses or quotes: targets of the example code and of the
        prose names; a name that does not resolve spreads its weight over its namesakes."""
        try:
            facts = parse_file(ISSUE_FILE, example_code(issue), ISSUE_MODULE)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            facts = parse_file(ISSUE_FILE, "", ISSUE_MODULE)
        imports = [(p, p, "") for p in self.packages] + [list(i) for i in facts.imports]
        variables = dict(facts.variables)
        names = [local for local, _, _ in facts.imports] + facts.calls + list(facts.variables.values())
        for unit in facts.units:
            variables = {**unit.types, **variables}
            names += [c for c in unit.calls + unit.bases if c.split(".")[0] not in ("self", "cls", "super()")]
        names += prose_names(issue)
        self.resolver.index.add_scope(ISSUE_FILE, ISSUE_MODULE, imports, facts.stars, variables)
        found: dict[str, float] = {}
        for name in dict.fromkeys(names):
            spread = self.resolver.resolve_names(ISSUE_FILE, [name], set()) or self.namesakes(name)
            for node_id in spread:
                found[node_id] = max(found.get(node_id, 0.0), self.weight(name) / len(spread))
        return found

    def namesakes(self, name: str) -> list[str]:
        """Units a name that does not resolve may mean: ``Class.method`` (or ``Class().method``) by the
        end of their qualified name, a bare name by their own name."""
        parts = name.replace("()", "").split(".")
        suffix = ".".join(parts[-2:])
        return [u for u in self.units_named(parts[-1])
                if len(parts) == 1 or u.endswith(":" + suffix) or u.endswith("." + suffix)]
