"""One style for every figure of the book.

Call :func:`use_book_style` once at the top of a chapter. Colours are named by
what they show (``truth``, ``estimate``, ``bound``...), so that the true risk
has the same colour in every chapter.
"""

from __future__ import annotations

from typing import Sequence

import matplotlib as mpl
import numpy as np

__all__ = ["COLORS", "use_book_style", "mean_std", "mark_truth"]

#: Colour of each role a curve plays, the same in every chapter.
COLORS: dict[str, str] = {
    "truth": "#222222",
    "estimate": "#1f77b4",
    "bound": "#d62728",
    "holdout": "#ff7f0e",
    "kfold": "#1f77b4",
    "loo": "#2ca02c",
    "ckcv": "#9467bd",
    "nominal": "#7f7f7f",
}


def use_book_style() -> None:
    """Set matplotlib's rcParams to the book's style (also fixes the figure size).

    Examples
    --------
    >>> use_book_style()
    >>> import matplotlib as mpl
    >>> mpl.rcParams["axes.spines.top"]
    False
    """
    mpl.rcParams.update({
        "figure.figsize": (6.4, 3.6),
        "figure.dpi": 100,
        "savefig.dpi": 150,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.titlesize": "medium",
        "axes.labelsize": "medium",
        "legend.frameon": False,
        "font.size": 10,
        "axes.prop_cycle": mpl.cycler(color=[COLORS[k] for k in
                                             ("estimate", "holdout", "loo", "bound", "ckcv")]),
    })


def mean_std(values: Sequence[float] | np.ndarray, digits: int = 3, scale: float = 1.0) -> str:
    """Format values as ``"mean ± std"``, the book's way of reporting a spread.

    The standard deviation uses ``ddof=1`` (a sample estimate).

    Parameters
    ----------
    values : array_like
        At least one finite number.
    digits : int, default=3
        Decimals shown.
    scale : float, default=1.0
        Multiply before formatting (100 for percentages).

    Examples
    --------
    >>> mean_std([0.1, 0.2, 0.3])
    '0.200 ± 0.100'
    >>> mean_std([0.1, 0.2, 0.3], digits=1, scale=100)
    '20.0 ± 10.0'
    """
    arr = np.asarray(values, dtype=float) * scale
    if arr.size == 0 or not np.all(np.isfinite(arr)):
        raise ValueError("values must be a non-empty array of finite numbers")
    std = arr.std(ddof=1) if arr.size > 1 else 0.0
    return f"{arr.mean():.{digits}f} ± {std:.{digits}f}"


def mark_truth(ax, value: float, label: str = "true risk") -> None:
    """Draw the true risk as a horizontal line in the book's ``truth`` colour."""
    ax.axhline(value, color=COLORS["truth"], linestyle="--", linewidth=1.2, label=label)
