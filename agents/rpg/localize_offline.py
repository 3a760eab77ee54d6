"""The offline localiser: lexical and pointer evidence, spread by a personalised PageRank over the graph.

It is the localisation agent's no-model policy and a baseline of its own. Evidence per code node:

- lexical: BM25 of the issue over code chunks (normalised to the best match), plus BM25 of its title
  alone and, if weighted, fuzzy similarity to the lifted features;
- places: the files and functions of the issue's tracebacks and file paths (see
  :mod:`agents.rpg.mentions`);
- the walk: degree-normalised personalised PageRank (see :mod:`agents.rpg.walk`) that starts from the
  strongest evidence and from the code the issue uses or quotes (its example's calls, code-like names),
  each weighted by the rarity of its name. Quoted code is where the walk starts, not an answer: an
  issue names the API it calls, and the fix tends to lie behind it. Code next to several matches
  rises, and hubs do not.

Functions and methods (nested functions fold into the one that holds them) are ranked for the
function level, top-level classes and functions for the module level, and files by their best unit
plus their own evidence. Test files (and top-level docs, examples and benchmarks) are not candidates
unless asked for, and the issue's environment report (versions, operating system) is not read (see
:mod:`agents.rpg.issue_text`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks.repo.gcpause import paused
from sandboxes.settings import Config

from agents.rpg.issue_text import drop_environment
from agents.rpg.mentions import MentionFinder
from agents.rpg.resolve import SymbolIndex
from agents.rpg.walk import CodeMatrix, personalised_pagerank
from memory.rpg.graph import CODE_KINDS, EdgeKind, NodeKind
from tools.rpg.workspace import RPGWorkspace, is_support_path

POLICY = "offline policy: BM25 + issue pointers + degree-normalised personalised PageRank over the RPG"
FUNCTION_KINDS = (NodeKind.FUNCTION, NodeKind.METHOD)


class RankConfig(Config):
    """Weights and switches of the offline localiser (each switch is one ablation)."""

    feature_weight: float = 0.0
    """Weight of fuzzy similarity to lifted features, next to normalised BM25 (0: off)."""
    title_weight: float = 0.3
    """Weight of BM25 of the issue's title (its first non-empty line, when more follow; normalised to the best
    match), added to the evidence: the title names the problem in a few words, the body dilutes them (0: off; on
    the development set 0.3 raised file@3, file@5 and function@1 with file@1 unchanged, 1.0 lowered file@1)."""
    place_weight: float = 0.5
    """Weight of the places the issue names (traceback frames, file paths), added to the evidence (0: off)."""
    frame_decay: float = 0.7
    """A traceback's innermost file weighs fully, each file further out this much times the next one in
    (1: every frame alike; on the development set 0.7 put the crash site first more often)."""
    name_weight: float = 1.0
    """Weight of the code the issue uses or quotes in the walk's start, next to the strongest evidence's
    (0: the walk starts from evidence alone)."""
    walk_weight: float = 0.1
    """Weight of the walk's evidence (normalised to its maximum) in the final score (0: no walk). Small: the walk
    orders what the evidence found (on the development set 0.1 beat 0.5 at file@1, @3 and function@1)."""
    restart: float = 0.3
    """Probability that the walker jumps back to the seeds at each step."""
    iterations: int = 25
    """Power-iteration steps of the personalised PageRank."""
    degree_power: float = 1.0
    """Walk mass is divided by degree to this power (1: no hub bias; 0.5: symmetric normalisation, as in
    graph propagation with D^-1/2 A D^-1/2; 0: plain PageRank)."""
    seeds: int = 30
    """The strongest nodes by evidence that the walk starts from."""
    invokes_weight: float = 1.0
    """Edge weight of calls in the walk."""
    inherits_weight: float = 1.0
    """Edge weight of inheritance in the walk."""
    contains_weight: float = 0.5
    """Edge weight of containment (file → class → method) in the walk."""
    file_own_weight: float = 0.5
    """A file's score is its best unit's plus this share of its own evidence (path, docstring)."""
    name_file_weight: float = 0.0
    """Weight of the code the issue uses or quotes as evidence for the files that define it, at the file
    level only (0: off; quoted names stay walk seeds and never become function answers)."""
    include_tests: bool = False
    """Let test files (tests/ folders, test_*.py, conftest.py) and the top-level docs, examples and
    benchmarks folders be answers."""
    drop_environment: bool = True
    """Read the issue without its environment report (version lines, OS and installed-packages sections)."""
    top_k: int = 10
    """How many files and modules to return (three times as many functions)."""


@dataclass
class Ranking:
    """Ranked answers at each level, and the score of every node that had any."""

    functions: list[str] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    scores: dict[str, float] = field(default_factory=dict)


class OfflineRanker:
    """Ranks locations in one graph state; the structures it derives are built once and reused."""

    def __init__(self, workspace: RPGWorkspace, symbols: SymbolIndex | None = None):
        """``symbols``: the symbol tables of the workspace's graph state, when the build or update left them."""
        self.workspace = workspace
        self._symbols = symbols
        self._matrices: dict[tuple, CodeMatrix] = {}
        self._mentions: MentionFinder | None = None
        self._last: tuple[str, dict[str, dict[str, float]]] = ("", {})

    @property
    def mentions(self) -> MentionFinder:
        if self._mentions is None:
            self._mentions = MentionFinder(self.workspace, self._symbols)
        return self._mentions

    def matrix(self, config: RankConfig) -> CodeMatrix:
        weights = {EdgeKind.INVOKES: config.invokes_weight, EdgeKind.INHERITS: config.inherits_weight,
                   EdgeKind.CONTAINS: config.contains_weight}
        key = tuple(sorted((k.value, w) for k, w in weights.items()))
        if key not in self._matrices:
            self._matrices[key] = CodeMatrix(self.workspace.rpg, weights)
        return self._matrices[key]

    def signals(self, issue: str, name: str, frame_decay: float = 1.0) -> dict[str, float]:
        """One signal for an issue (``lexical``, ``title``, ``features``, ``places`` or ``names``); the last issue's
        are kept, so that variants ranking the same issue compute each signal once (places once per
        ``frame_decay``)."""
        if self._last[0] != issue:
            self._last = (issue, {})
        cached = self._last[1]
        key = f"{name}@{frame_decay}" if name == "places" else name
        if key not in cached:
            if name == "lexical":
                cached[key] = self._normalised_bm25(issue)
            elif name == "title":
                cached[key] = self._normalised_bm25(_title(issue))
            elif name == "features":
                rpg = self.workspace.rpg
                cached[key] = {node_id: value for node_id, value in self.workspace.fuzzy.scores(issue[:2000]).items()
                                if rpg.node(node_id).kind in (*FUNCTION_KINDS, NodeKind.CLASS)}
            elif name == "places":
                cached[key] = self.mentions.places(issue, frame_decay)
            else:
                cached[key] = self.mentions.names(issue)
        return cached[key]

    def _normalised_bm25(self, text: str) -> dict[str, float]:
        lexical = self.workspace.bm25.scores(text)
        top = max(lexical.values(), default=1.0) or 1.0
        return {node_id: value / top for node_id, value in lexical.items()}

    def evidence(self, issue: str, config: RankConfig) -> dict[str, float]:
        """Lexical evidence plus weighted features, places and title, per node."""
        scores = dict(self.signals(issue, "lexical"))
        for name, weight in (("features", config.feature_weight), ("places", config.place_weight),
                             ("title", config.title_weight)):
            if weight:
                for node_id, value in self.signals(issue, name, config.frame_decay).items():
                    scores[node_id] = scores.get(node_id, 0.0) + weight * value
        return scores

    def scores(self, issue: str, config: RankConfig) -> dict[str, float]:
        """Evidence plus the walk's, per node."""
        evidence = self.evidence(issue, config)
        if not config.walk_weight:
            return evidence
        start = dict(sorted(evidence.items(), key=lambda item: (-item[1], item[0]))[:config.seeds])
        if config.name_weight:
            for node_id, value in self.signals(issue, "names").items():
                start[node_id] = start.get(node_id, 0.0) + config.name_weight * value
        walked = personalised_pagerank(self.matrix(config), start, config.restart, config.iterations,
                                       config.degree_power)
        top = max(walked.values(), default=1.0) or 1.0
        combined = dict(evidence)
        for node_id, value in walked.items():
            combined[node_id] = combined.get(node_id, 0.0) + config.walk_weight * value / top
        return combined

    @paused
    def rank(self, issue: str, config: RankConfig | None = None) -> Ranking:
        config = config or RankConfig()
        if config.drop_environment:
            issue = drop_environment(issue)
        scores = self.scores(issue, config)
        named = self.signals(issue, "names") if config.name_file_weight else {}
        return levels(self.workspace, scores, config, named)


def levels(workspace: RPGWorkspace, scores: dict[str, float], config: RankConfig,
           named: dict[str, float] | None = None) -> Ranking:
    """Function, module and file rankings from node scores (and, for files, the ``named`` code's weight)."""
    rpg = workspace.rpg
    functions: dict[str, float] = {}
    modules: dict[str, float] = {}
    own: dict[str, float] = {}
    for node_id, value in scores.items():
        node = rpg.get(node_id)
        if node is None or (not config.include_tests and is_support_path(node.path)):
            continue
        if node.kind is NodeKind.FILE:
            own[node_id] = value
        elif node.kind in (*FUNCTION_KINDS, NodeKind.CLASS):
            chain = _ancestry(rpg, node_id)
            if node.kind in FUNCTION_KINDS:
                holder = _function_level(rpg, chain)
                functions[holder] = max(functions.get(holder, 0.0), value)
            modules[chain[0]] = max(modules.get(chain[0], 0.0), value)
    files = {path: config.file_own_weight * value for path, value in own.items()}
    best: dict[str, float] = {}
    for node_id, value in modules.items():
        path = rpg.node(node_id).path
        best[path] = max(best.get(path, 0.0), value)
    for path, value in best.items():
        files[path] = files.get(path, 0.0) + value
    for path, value in _named_files(rpg, named or {}, config).items():
        files[path] = files.get(path, 0.0) + config.name_file_weight * value
    return Ranking(_top(functions, 3 * config.top_k), _top(modules, config.top_k), _top(files, config.top_k), scores)


def _named_files(rpg, named: dict[str, float], config: RankConfig) -> dict[str, float]:
    """The strongest weight of the code the issue names, per file that defines it (test files left out
    unless asked for)."""
    found: dict[str, float] = {}
    for node_id, value in named.items():
        node = rpg.get(node_id)
        if node is not None and node.kind in CODE_KINDS and (config.include_tests or not is_support_path(node.path)):
            found[node.path] = max(found.get(node.path, 0.0), value)
    return found


def _title(issue: str) -> str:
    """The issue's first non-empty line if a body follows it (a one-line issue is all body: no title)."""
    lines = [line for line in issue.splitlines() if line.strip()]
    return lines[0] if len(lines) > 1 else ""


def _ancestry(rpg, node_id: str) -> list[str]:
    """The units from the top-level one down to ``node_id``, read off its ``path:Qual.name`` id."""
    path, _, qualname = node_id.partition(":")
    parts = qualname.split(".")
    chain = [f"{path}:{'.'.join(parts[:end])}" for end in range(1, len(parts) + 1)]
    return [unit for unit in chain if unit in rpg]


def _function_level(rpg, chain: list[str]) -> str:
    """The outermost function or method that holds the last unit of ``chain`` through functions only."""
    position = len(chain) - 1
    while position > 0 and rpg.node(chain[position - 1]).kind in FUNCTION_KINDS:
        position -= 1
    return chain[position]


def _top(scores: dict[str, float], k: int) -> list[str]:
    return sorted(scores, key=lambda node_id: (-scores[node_id], node_id))[:k]
