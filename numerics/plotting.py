"""One figure saved as a PNG with the non-interactive backend (matplotlib is imported only when plotting)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator


@contextmanager
def saved_figure(path: Path, figsize: tuple[float, float] = (6, 4), dpi: int = 110) -> Iterator[tuple[Any, Any]]:
    """Yield ``(figure, axis)``; on leaving, lay it out and save it to ``path``; always close it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    figure, axis = plt.subplots(figsize=figsize)
    try:
        yield figure, axis
        figure.tight_layout()
        figure.savefig(path, dpi=dpi)
    finally:
        plt.close(figure)
