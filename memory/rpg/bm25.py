"""Okapi BM25 over code-aware tokens (identifiers are split on snake_case and CamelCase)."""

from __future__ import annotations

import functools
import math
import re
from collections import Counter, defaultdict
from typing import Iterable

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
STOPWORDS = frozenset("""a an and are as at be by for from has have if in into is it its of on or that the
this to was were will with self none true false return def class import not but can do does
should would when which what how there their then than so""".split())


def tokenize(text: str) -> list[str]:
    """Lower-cased identifier parts plus whole identifiers, without stop words."""
    tokens: list[str] = []
    for word in _WORD.findall(text):
        tokens.extend(_word_tokens(word))
    return tokens


def term_counts(text: str) -> Counter[str]:
    """``Counter(tokenize(text))``, splitting each distinct word once (a chunk repeats its words a lot)."""
    counts: dict[str, int] = {}
    for word, times in Counter(_WORD.findall(text)).items():
        for token in _word_tokens(word):
            counts[token] = counts.get(token, 0) + times
    return Counter(counts)


@functools.lru_cache(maxsize=200_000)
def _word_tokens(word: str) -> tuple[str, ...]:
    parts = [p.lower() for chunk in word.split("_") for p in _CAMEL.findall(chunk)]
    tokens = ([word.lower()] if len(parts) > 1 else []) + [stem(p) for p in parts]
    return tuple(t for t in tokens if t not in STOPWORDS and len(t) > 1)


def stem(word: str) -> str:
    """A light English stemmer for identifier parts and prose alike: plurals, ``-ed`` and ``-ing``
    (``amounts``, ``rounded``, ``rounding`` → ``amount``, ``round``, ``round``); short words stay."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "os")):
        return word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            root = word[:-len(suffix)]
            return root[:-1] if len(root) > 3 and root[-1] == root[-2] and root[-1] not in "lsz" else root
    return word


class BM25:
    """An inverted index with BM25 scoring; documents can be added and removed one by one."""

    def __init__(self, k1: float = 1.2, b: float = 0.75):
        self.k1, self.b = k1, b
        self._lengths: dict[str, int] = {}
        self._postings: dict[str, dict[str, int]] = defaultdict(dict)
        self._terms: dict[str, list[str]] = {}
        self._total_length = 0
        self._cache: dict[str, dict[str, float]] = {}

    def __len__(self) -> int:
        return len(self._lengths)

    def add(self, doc_id: str, text: str) -> None:
        self._cache.clear()
        if doc_id in self._lengths:
            self.remove(doc_id)
        counts = term_counts(text)
        for term, count in counts.items():
            self._postings[term][doc_id] = count
        self._terms[doc_id] = list(counts)
        self._lengths[doc_id] = sum(counts.values())
        self._total_length += self._lengths[doc_id]

    def remove(self, doc_id: str) -> None:
        self._cache.clear()
        for term in self._terms.pop(doc_id, []):
            self._postings[term].pop(doc_id, None)
            if not self._postings[term]:
                del self._postings[term]
        self._total_length -= self._lengths.pop(doc_id, 0)

    def scores(self, query: str, allowed: Iterable[str] | None = None) -> dict[str, float]:
        """BM25 score of every document that shares a term with ``query``."""
        allowed_set = set(allowed) if allowed is not None else None
        result: dict[str, float] = defaultdict(float)
        for term in set(tokenize(query)):
            for doc_id, weight in self._weights(term).items():
                if allowed_set is None or doc_id in allowed_set:
                    result[doc_id] += weight
        return dict(result)

    def idf(self, term: str) -> float:
        """BM25's inverse document frequency of a (tokenised) term; rare terms weigh more."""
        documents = len(self._postings.get(term) or ())
        return math.log(1 + (len(self._lengths) - documents + 0.5) / (documents + 0.5))

    def max_idf(self) -> float:
        """The idf of a term no document holds (the upper bound of :meth:`idf`)."""
        return math.log(1 + (len(self._lengths) + 0.5) / 0.5)

    def _weights(self, term: str) -> dict[str, float]:
        """Per-document BM25 weight of one term, cached until the index changes."""
        cached = self._cache.get(term)
        if cached is not None:
            return cached
        postings = self._postings.get(term) or {}
        average = self._total_length / len(self._lengths) if self._lengths else 1.0
        idf = self.idf(term)
        weights = {doc_id: idf * freq * (self.k1 + 1) /
                   (freq + self.k1 * (1 - self.b + self.b * self._lengths[doc_id] / (average or 1.0)))
                   for doc_id, freq in postings.items()}
        self._cache[term] = weights
        return weights

    def top(self, query: str, k: int = 10, allowed: Iterable[str] | None = None) -> list[tuple[str, float]]:
        ranked = sorted(self.scores(query, allowed).items(), key=lambda item: (-item[1], item[0]))
        return ranked[:k]
