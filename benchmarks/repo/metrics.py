"""Localisation metrics at one level (file, module or function).

- ``acc`` — LocAgent's Acc@k: an instance counts only if every gold item, taking at most k of
  them, is among the top k predictions.
- ``acc_any`` — the any-hit definition: at least one gold item is in the top k.
- ``recall`` — the share of gold items found in the top k.
- ``ndcg`` — binary-relevance NDCG@k with the ideal ranking placing every gold item first.
"""

from __future__ import annotations

import math

METRICS = ("acc", "acc_any", "recall", "ndcg")
DEFAULT_KS = (1, 3, 5, 10)


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def acc_at_k(predicted: list[str], gold: list[str], k: int) -> float:
    top = set(_dedupe(predicted)[:k])
    return float(all(item in top for item in _dedupe(gold)[:k]))


def any_hit_at_k(predicted: list[str], gold: list[str], k: int) -> float:
    top = set(_dedupe(predicted)[:k])
    return float(any(item in top for item in gold))


def recall_at_k(predicted: list[str], gold: list[str], k: int) -> float:
    gold_set = set(gold)
    return len(gold_set.intersection(_dedupe(predicted)[:k])) / len(gold_set)


def ndcg_at_k(predicted: list[str], gold: list[str], k: int) -> float:
    gold_set = set(gold)
    gains = sum(1 / math.log2(rank + 2) for rank, item in enumerate(_dedupe(predicted)[:k]) if item in gold_set)
    ideal = sum(1 / math.log2(rank + 2) for rank in range(min(len(gold_set), k)))
    return gains / ideal


_FUNCTIONS = {"acc": acc_at_k, "acc_any": any_hit_at_k, "recall": recall_at_k, "ndcg": ndcg_at_k}


def score(predicted: list[str], gold: list[str], ks: tuple[int, ...] = DEFAULT_KS) -> dict[str, float] | None:
    """Every metric at every k for one instance and level; ``None`` when there is no gold."""
    if not gold:
        return None
    return {f"{name}@{k}": fn(predicted, gold, k) for name, fn in _FUNCTIONS.items() for k in ks}


def mean_percent(values: list[float]) -> float:
    """Mean of 0..1 scores as a percentage rounded to two decimals (as papers report them)."""
    return round(100 * sum(values) / len(values), 2) if values else float("nan")
