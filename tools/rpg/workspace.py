"""An RPG with access to its code and lazily built search indexes, shared by the navigation tools."""

from __future__ import annotations

import subprocess
import threading
from collections import defaultdict
from pathlib import Path

from memory.rpg.bm25 import BM25
from memory.rpg.graph import CODE_KINDS, RPG, Node, NodeKind

UNIT_KINDS = (NodeKind.CLASS, NodeKind.FUNCTION, NodeKind.METHOD)


def trigrams(text: str) -> set[str]:
    padded = f"  {' '.join(text.lower().split())} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


class FuzzyIndex:
    """Trigram (Dice) similarity between a query and each node's feature phrases and name.

    Candidates come from the query's rarest trigrams (common ones like " ha" in "handle" would
    touch every node); each candidate is then scored exactly against all its trigrams.
    """

    def __init__(self, max_candidates: int = 3000):
        self.max_candidates = max_candidates
        self._postings: dict[str, list[int]] = defaultdict(list)
        self._phrases: list[tuple[str, frozenset[str]]] = []

    def add(self, node_id: str, phrases: list[str]) -> None:
        for phrase in dict.fromkeys(phrases):
            grams = frozenset(trigrams(phrase))
            for gram in grams:
                self._postings[gram].append(len(self._phrases))
            self._phrases.append((node_id, grams))

    def scores(self, query: str) -> dict[str, float]:
        """Best Dice coefficient per node over its phrases."""
        grams = trigrams(query)
        candidates: set[int] = set()
        for gram in sorted(grams, key=lambda g: len(self._postings.get(g, ()))):
            if len(candidates) >= self.max_candidates:
                break
            candidates.update(self._postings.get(gram, ()))
        best: dict[str, float] = {}
        for number in candidates:
            node_id, phrase_grams = self._phrases[number]
            value = 2 * len(grams & phrase_grams) / (len(grams) + len(phrase_grams))
            if value > best.get(node_id, 0.0):
                best[node_id] = value
        return best


class RPGWorkspace:
    """The graph, where its code lives (a directory, or a git repository at ``rpg.commit``), and indexes."""

    def __init__(self, rpg: RPG, root: str | Path | None = None, repo: str | Path | None = None):
        self.rpg = rpg
        self.root = Path(root) if root else None
        self.repo = Path(repo) if repo else None
        self._texts: dict[str, list[str]] = {}
        self._bm25: BM25 | None = None
        self._fuzzy: FuzzyIndex | None = None
        self._lock = threading.Lock()

    def lines(self, path: str) -> list[str]:
        """The lines of a file ([] when it cannot be read)."""
        if path not in self._texts:
            self._texts[path] = self._read(path).splitlines()
        return self._texts[path]

    def _read(self, path: str) -> str:
        if self.root and (self.root / path).is_file():
            return (self.root / path).read_text(errors="replace")
        if self.repo and self.rpg.commit:
            result = subprocess.run(["git", "-C", str(self.repo), "show", f"{self.rpg.commit}:{path}"],
                                    capture_output=True)
            return result.stdout.decode("utf-8", "replace") if result.returncode == 0 else ""
        return ""

    def code(self, node: Node, max_lines: int = 200) -> str:
        if node.kind not in CODE_KINDS:
            return ""
        selected = self.lines(node.path)[max(node.start - 1, 0): node.end]
        clipped = selected[:max_lines]
        more = f"\n... [{len(selected) - max_lines} more lines]" if len(selected) > max_lines else ""
        return "\n".join(clipped) + more

    def chunk_text(self, node: Node) -> str:
        """What BM25 indexes for a node: id, signature, docstring, features and (for units) code."""
        head = " ".join([node.id.replace("/", " "), node.signature, node.docstring, node.summary, *node.features])
        if node.kind in UNIT_KINDS:
            return head + "\n" + self.code(node, max_lines=400)
        return head

    @property
    def bm25(self) -> BM25:
        with self._lock:
            if self._bm25 is None:
                index = BM25()
                for node in self.rpg.nodes(*CODE_KINDS):
                    index.add(node.id, self.chunk_text(node))
                self._bm25 = index
        return self._bm25

    @property
    def fuzzy(self) -> FuzzyIndex:
        with self._lock:
            if self._fuzzy is None:
                index = FuzzyIndex()
                for node in self.rpg.nodes():
                    index.add(node.id, [node.name, *node.features])
                self._fuzzy = index
        return self._fuzzy

    def find(self, name: str) -> list[str]:
        """Node ids matching ``name``: an exact id, a path, or a ``Qual.name`` suffix."""
        if name in self.rpg:
            return [name]
        name = name.strip().removeprefix("./")
        if name in self.rpg:
            return [name]
        suffix = name.split(":", 1)[-1]
        return sorted(n.id for n in self.rpg.nodes(*CODE_KINDS)
                      if n.id.endswith(":" + suffix) or n.id.endswith("." + suffix) or n.path == name)[:20]
