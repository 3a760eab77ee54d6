"""Published baseline gaps for the fidelity check, as reported in the papers (percent).

EoH (Liu et al., ICML 2024, Table 1, online bin packing on Weibull instances, 5 instances per set)
and FunSearch (Romera-Paredes et al., Nature 2023, Table 1, Weibull 5k). MCTS-AHD (Zheng et al.,
2025, Table 1, step-by-step TSP construction) reports nearest neighbour near 22-26 %; those values are
approximate (not checked against the paper's table) and are marked so.
"""

from __future__ import annotations

EOH = "EoH (Liu et al. 2024) Table 1"
FUNSEARCH = "FunSearch (Romera-Paredes et al. 2023) Table 1"
MCTS_AHD = "MCTS-AHD (Zheng et al. 2025) Table 1, approximate"

PUBLISHED: dict[tuple[str, str, int, int | None], list[tuple[float, str]]] = {
    ("bpp_online", "first_fit", 1000, 100): [(5.32, EOH)],
    ("bpp_online", "first_fit", 5000, 100): [(4.40, EOH), (4.23, FUNSEARCH)],
    ("bpp_online", "first_fit", 10000, 100): [(4.44, EOH)],
    ("bpp_online", "first_fit", 1000, 500): [(4.97, EOH)],
    ("bpp_online", "first_fit", 5000, 500): [(4.27, EOH)],
    ("bpp_online", "first_fit", 10000, 500): [(4.28, EOH)],
    ("bpp_online", "best_fit", 1000, 100): [(4.87, EOH)],
    ("bpp_online", "best_fit", 5000, 100): [(4.08, EOH), (3.98, FUNSEARCH)],
    ("bpp_online", "best_fit", 10000, 100): [(4.09, EOH)],
    ("bpp_online", "best_fit", 1000, 500): [(4.50, EOH)],
    ("bpp_online", "best_fit", 5000, 500): [(3.91, EOH)],
    ("bpp_online", "best_fit", 10000, 500): [(3.95, EOH)],
    ("tsp_construct", "nearest_neighbour", 50, None): [(22.6, MCTS_AHD)],
    ("tsp_construct", "nearest_neighbour", 100, None): [(25.0, MCTS_AHD)],
    ("tsp_construct", "nearest_neighbour", 200, None): [(26.3, MCTS_AHD)],
}


def published(problem: str, method: str, size: int, capacity: int | None) -> str:
    """The published values for this row as text ("4.40 (EoH ...); 4.23 (FunSearch ...)"), or ""."""
    values = PUBLISHED.get((problem, method, size, capacity), [])
    return "; ".join(f"{value:.2f} ({source})" for value, source in values)
