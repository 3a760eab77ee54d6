"""An RPG with access to its code and lazily built search indexes, shared by the navigation tools.

The indexes follow the graph: after the graph moves to another commit, :meth:`RPGWorkspace.refresh`
re-indexes the files that changed (and the hierarchy), and the result equals indexes built afresh.
"""

from __future__ import annotations

import hashlib
import threading
from collections import defaultdict
from pathlib import Path
from typing import Iterable

from memory.rpg.bm25 import BM25
from memory.rpg.graph import CODE_KINDS, HIERARCHY_KINDS, RPG, Node, NodeKind
from tools.rpg.files import UnreadableFile, read_source_file, source_lines
from tools.rpg.gitobjects import read_objects

UNIT_KINDS = (NodeKind.CLASS, NodeKind.FUNCTION, NodeKind.METHOD)
TEST_DIRS = frozenset({"tests", "test"})
SUPPORT_ROOTS = frozenset({"doc", "docs", "example", "examples", "benchmarks", "asv_bench", "testing"})


def trigrams(text: str) -> set[str]:
    padded = f"  {' '.join(text.lower().split())} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def is_test_path(path: str) -> bool:
    """Test code by the usual layouts: a ``tests`` or ``test`` folder, ``test_*.py``,
    ``*_test.py`` or ``conftest.py``."""
    parts = path.split("/")
    name = parts[-1]
    return (any(part in TEST_DIRS for part in parts[:-1]) or name.startswith("test_")
            or name.endswith("_test.py") or name == "conftest.py")


def is_support_path(path: str) -> bool:
    """Code that is not the library a fix goes into: tests (:func:`is_test_path`) and the top-level
    folders of documentation, examples, benchmarks and test suites named ``testing`` (pytest's)."""
    parts = path.split("/")
    return is_test_path(path) or (len(parts) > 1 and parts[0] in SUPPORT_ROOTS)


class FuzzyIndex:
    """Trigram (Dice) similarity between a query and each node's feature phrases and name.

    Candidates come from the query's rarest trigrams (common ones like " ha" in "handle" would
    touch every node); each candidate is then scored exactly against all its trigrams. Nodes can be
    removed, and the answer never depends on the order in which nodes were added.
    """

    def __init__(self, max_candidates: int = 3000):
        self.max_candidates = max_candidates
        self._postings: dict[str, set[tuple[str, str]]] = defaultdict(set)
        self._phrases: dict[str, dict[str, frozenset[str]]] = {}

    def add(self, node_id: str, phrases: list[str]) -> None:
        """Index ``node_id``'s phrases, replacing its old ones (nothing to do when they are the same)."""
        unique = list(dict.fromkeys(phrases))
        if node_id in self._phrases and list(self._phrases[node_id]) == unique:
            return
        self.remove(node_id)
        grams_of = {phrase: frozenset(trigrams(phrase)) for phrase in unique}
        self._phrases[node_id] = grams_of
        for phrase, grams in grams_of.items():
            for gram in grams:
                self._postings[gram].add((node_id, phrase))

    def remove(self, node_id: str) -> None:
        for phrase, grams in self._phrases.pop(node_id, {}).items():
            for gram in grams:
                self._postings[gram].discard((node_id, phrase))
                if not self._postings[gram]:
                    del self._postings[gram]

    def scores(self, query: str) -> dict[str, float]:
        """Best Dice coefficient per node over its phrases."""
        grams = trigrams(query)
        candidates: set[tuple[str, str]] = set()
        for gram in sorted(grams, key=lambda g: (len(self._postings.get(g, ())), g)):
            if len(candidates) >= self.max_candidates:
                break
            candidates.update(self._postings.get(gram, ()))
        best: dict[str, float] = {}
        for node_id, phrase in candidates:
            phrase_grams = self._phrases[node_id][phrase]
            value = 2 * len(grams & phrase_grams) / (len(grams) + len(phrase_grams))
            if value > best.get(node_id, 0.0):
                best[node_id] = value
        return best


class RPGWorkspace:
    """The graph, where its code lives (a directory, or a git repository at ``rpg.commit``), and indexes.

    ``texts`` may hand over file contents already read (for example by the build), so that nothing
    is read twice.
    """

    def __init__(self, rpg: RPG, root: str | Path | None = None, repo: str | Path | None = None,
                 texts: dict[str, str] | None = None):
        self.rpg = rpg
        self.root = Path(root) if root else None
        self.repo = Path(repo) if repo else None
        self._texts: dict[str, list[str]] = {path: source_lines(text) for path, text in (texts or {}).items()}
        self._bm25: BM25 | None = None
        self._fuzzy: FuzzyIndex | None = None
        self._indexed: dict[str, list[str]] = {}
        self._digests: dict[str, str] = {}
        """Per indexed unit or file node, the hash of the chunk text BM25 holds for it."""
        self._lock = threading.RLock()

    def lines(self, path: str) -> list[str]:
        """The lines of a file ([] when it cannot be read)."""
        if path not in self._texts:
            self.preload([path])
        return self._texts[path]

    def preload(self, paths: Iterable[str]) -> None:
        """Read the given files (from a git repository in one batch) into the text cache."""
        missing = [p for p in dict.fromkeys(paths) if p not in self._texts]
        for path in missing if self.root else []:
            try:
                self._texts[path] = source_lines(read_source_file(self.root, path).decode("utf-8", "replace"))
            except UnreadableFile:
                continue
        from_git = [p for p in missing if p not in self._texts]
        blobs = read_objects(self.repo, [f"{self.rpg.commit}:{p}" for p in from_git]) \
            if self.repo and self.rpg.commit else [None] * len(from_git)
        for path, blob in zip(from_git, blobs):
            self._texts[path] = source_lines(blob.decode("utf-8", "replace")) if blob is not None else []

    def code(self, node: Node, max_lines: int = 200) -> str:
        if node.kind not in CODE_KINDS:
            return ""
        selected = self.lines(node.path)[max(node.start - 1, 0): node.end]
        clipped = selected[:max_lines]
        more = f"\n... [{len(selected) - max_lines} more lines]" if len(selected) > max_lines else ""
        return "\n".join(clipped) + more

    def chunk_text(self, node: Node) -> str:
        """What BM25 indexes for a node: id, signature, docstring, features and (for units) code.

        A class's code is its own: the lines of its methods and nested classes are theirs, so a class
        does not outweigh its methods by holding all their words again.
        """
        head = " ".join([node.id.replace("/", " "), node.signature, node.docstring, node.summary, *node.features])
        if node.kind is NodeKind.CLASS:
            return head + "\n" + self._own_code(node)
        if node.kind in UNIT_KINDS:
            return head + "\n" + self.code(node, max_lines=400)
        return head

    def _own_code(self, node: Node, max_lines: int = 400) -> str:
        """A class's lines without those of the units it contains (their names stay)."""
        inner = [self.rpg.node(c) for c in self.rpg.children(node.id)]
        spans = [(c.start, c.end) for c in inner if c.kind in UNIT_KINDS]
        covered = {number for start, end in spans for number in range(start, end + 1)}
        lines = self.lines(node.path)[max(node.start - 1, 0): node.end]
        own = [line for number, line in enumerate(lines, node.start) if number not in covered]
        return "\n".join(own[:max_lines] + [c.name for c in inner])

    def _file_nodes(self, path: str) -> list[Node]:
        if path not in self.rpg or self.rpg.node(path).kind is not NodeKind.FILE:
            return []
        return [self.rpg.node(n) for n in [path, *self.rpg.descendants(path)]]

    def _index_file(self, path: str) -> None:
        """Bring the indexes in line with ``path``'s nodes: nodes gone are dropped, and only nodes whose
        chunk text (or phrases) changed are re-indexed, so an edit costs in proportion to what it touched."""
        nodes = self._file_nodes(path)
        current = {n.id for n in nodes}
        for node_id in self._indexed.pop(path, []):
            if node_id not in current:
                self._bm25.remove(node_id)
                self._fuzzy.remove(node_id)
                self._digests.pop(node_id, None)
        for node in nodes:
            text = self.chunk_text(node)
            digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()
            if self._digests.get(node.id) != digest:
                self._digests[node.id] = digest
                self._bm25.add(node.id, text)
            self._fuzzy.add(node.id, [node.name, *node.features])
        if nodes:
            self._indexed[path] = [n.id for n in nodes]

    def _index_hierarchy(self) -> None:
        nodes = list(self.rpg.nodes(*HIERARCHY_KINDS))
        current = {n.id for n in nodes}
        for node_id in self._indexed.pop("", []):
            if node_id not in current:
                self._fuzzy.remove(node_id)
        for node in nodes:
            self._fuzzy.add(node.id, [node.name, *node.features])
        self._indexed[""] = [n.id for n in nodes]

    def _build_indexes(self) -> None:
        with self._lock:
            if self._bm25 is not None:
                return
            self._bm25, self._fuzzy = BM25(), FuzzyIndex()
            files = sorted(n.id for n in self.rpg.nodes(NodeKind.FILE))
            self.preload(files)
            for path in files:
                self._index_file(path)
            self._index_hierarchy()

    @property
    def bm25(self) -> BM25:
        self._build_indexes()
        return self._bm25

    @property
    def fuzzy(self) -> FuzzyIndex:
        self._build_indexes()
        return self._fuzzy

    def refresh(self, paths: Iterable[str], texts: dict[str, str] | None = None) -> None:
        """The graph changed at ``paths`` (added, modified, deleted or moved files): forget their text
        (or take the new ``texts``) and re-index them and the hierarchy, if indexes exist."""
        with self._lock:
            paths = sorted(set(paths))
            for path in paths:
                self._texts.pop(path, None)
            self._texts.update({path: source_lines(text) for path, text in (texts or {}).items()})
            if self._bm25 is None:
                return
            self.preload(p for p in paths if p in self.rpg)
            for path in paths:
                self._index_file(path)
            self._index_hierarchy()

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
