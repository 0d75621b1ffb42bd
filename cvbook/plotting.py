"""One style for every figure of the book.

Call :func:`use_book_style` once at the top of a chapter. Colours are named by
what they show (``truth``, ``estimate``, ``bound``...), so that the true risk
has the same colour in every chapter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib as mpl
import numpy as np

from .book import format_pm
from .validation import (
    ArgumentTypeError,
    check_finite,
    check_float,
    check_int,
    check_integer_array,
    check_keys,
)

__all__ = [
    "COLORS",
    "COVERAGE_STYLE",
    "estimate_boxplot",
    "mark_truth",
    "mean_std",
    "plot_coverage",
    "plot_folds",
    "plot_slack_vs_n",
    "use_book_style",
]

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

    In a notebook it also asks the inline backend for ``retina`` figures: PNGs drawn at
    twice the pixel density and shown at the same size (the look is unchanged), so that
    labels stay sharp on high-density screens and when a phone's reader zooms a
    two-panel figure (the website lets such a figure scroll at a legible width).

    Examples
    --------
    >>> use_book_style()
    >>> import matplotlib as mpl
    >>> mpl.rcParams["axes.spines.top"]
    False
    """
    mpl.rcParams.update(
        {
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
            "axes.prop_cycle": mpl.cycler(
                color=[COLORS[k] for k in ("estimate", "holdout", "loo", "bound", "ckcv")]
            ),
        }
    )
    _use_retina_figures()


def _use_retina_figures() -> None:
    """2x PNGs for the inline backend, when running in an IPython kernel (else nothing)."""
    try:
        from IPython import get_ipython
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # plain Python: matplotlib alone, no inline backend
        return
    if get_ipython() is not None:
        set_matplotlib_formats("retina")


def mean_std(values: Sequence[float] | np.ndarray, digits: int = 3, scale: float = 1.0) -> str:
    """Format values as ``"mean ± std"``, the book's way of reporting a spread.

    The standard deviation uses ``ddof=1`` (a sample estimate). The text comes from
    :func:`cvbook.book.format_pm`: more decimals than ``digits`` when the spread would
    round to zero, and never a negative zero.

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
    >>> mean_std([-1e-6, 1e-6])
    '0.0000000 ± 0.0000014'
    """
    digits = check_int(digits, "digits", minimum=0, maximum=20)
    scale = check_float(scale, "scale")
    arr = check_finite(values, "values").ravel() * scale
    if arr.size == 0:
        raise ValueError("values must be a non-empty array of finite numbers, got an empty one")
    std = arr.std(ddof=1) if arr.size > 1 else 0.0
    return format_pm(float(arr.mean()), float(std), digits=digits)


def mark_truth(ax, value: float, label: str = "true risk") -> None:
    """Draw the true risk as a horizontal line in the book's ``truth`` colour.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> mark_truth(ax, 0.1)
    >>> len(ax.lines)
    1
    >>> plt.close(fig)
    """
    _check_ax(ax)
    value = check_float(value, "value")
    _check_str(label, "label")
    ax.axhline(value, color=COLORS["truth"], linestyle="--", linewidth=1.2, label=label)


def plot_folds(
    ax,
    sizes: Sequence[int],
    errors: Sequence[float] | None = None,
    test_color: str | None = None,
    train_color: str = "#d9d9d9",
) -> None:
    """Draw K-fold cross-validation as a grid: one row per iteration, one block per fold.

    Row ``j`` is iteration ``j``: fold ``j`` (coloured) is tested, the others
    (grey) train the model, as in the table of seed 000 and Mohri et al.'s
    figure 4.5a (seed 004). Block widths are proportional to the fold sizes, so
    unequal folds show.

    Parameters
    ----------
    ax : matplotlib Axes
    sizes : sequence of int
        Number of points in each fold, ``m_1, ..., m_K``.
    errors : sequence of float, optional
        The risk measured at each iteration, written at the end of its row.
    test_color : str, optional
        Colour of the test fold (default: the book's ``kfold`` colour).
    train_color : str, default="#d9d9d9"
        Colour of the training folds.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> plot_folds(ax, [4, 4, 3], errors=[0.25, 0.0, 0.333])
    >>> len(ax.patches)
    9
    >>> plt.close(fig)
    """
    _check_ax(ax)
    sizes = check_integer_array(sizes, "sizes", ndim=1, minimum=1).astype(float)
    if sizes.size < 2:
        raise ValueError(f"sizes must hold at least two positive fold sizes, got {sizes.size}")
    if errors is not None:
        errors = check_finite(errors, "errors")
        if errors.shape != sizes.shape:
            raise ValueError(
                f"errors must have one value per fold ({sizes.size}), got shape {errors.shape}"
            )
    if test_color is not None:
        _check_str(test_color, "test_color")
    _check_str(train_color, "train_color")
    test_color = test_color or COLORS["kfold"]
    k = sizes.size
    starts = np.concatenate([[0.0], np.cumsum(sizes)[:-1]])
    total = sizes.sum()
    for j in range(k):
        for i in range(k):
            ax.barh(
                j,
                sizes[i],
                left=starts[i],
                height=0.8,
                edgecolor="white",
                color=test_color if i == j else train_color,
            )
        if errors is not None:
            ax.text(total * 1.02, j, f"{errors[j]:.3f}", va="center", fontsize="small")
    for i in range(k):
        ax.text(
            starts[i] + sizes[i] / 2,
            -0.75,
            f"fold {i + 1}\n({int(sizes[i])})",
            ha="center",
            va="bottom",
            fontsize="x-small",
        )
    ax.set_yticks(range(k), [f"iteration {j + 1}" for j in range(k)])
    ax.set_ylim(k - 0.5, -0.9)
    ax.set_xlim(0, total * (1.12 if errors is not None else 1.0))
    ax.set_xticks([])
    ax.grid(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    if errors is not None:
        ax.text(total * 1.02, -0.75, "error", fontsize="small", va="bottom")


#: Colour and marker of each estimate of chapter 6
#: (keys of ``cvbook.studies.bound_coverage.METHODS``).
COVERAGE_STYLE: dict[str, tuple[str, str]] = {
    "holdout": (COLORS["holdout"], "o"),
    "ckcv": (COLORS["ckcv"], "s"),
    "ckcv_refit": ("#c5b0d5", "D"),
    "kfold": (COLORS["kfold"], "v"),
    "kfold_2std": ("#17becf", "^"),
}


def plot_coverage(ax, summary, methods=None, labels=None, n_se: float = 2.0) -> None:
    """Coverage against the nominal level ``1 - delta``, with ``±n_se`` SE bars.

    Parameters
    ----------
    ax : matplotlib Axes
    summary : list of dict
        Rows of :func:`cvbook.studies.bound_coverage.summarize` for one ``(n, k)``, several
        ``delta``.
    methods : sequence of str, optional
        Which estimates to draw (default: all present, in order).
    labels : dict, optional
        Legend label of each method.
    n_se : float, default=2.0
        Half-width of the error bars in standard errors.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> plot_coverage(ax, [{"method": "holdout", "delta": 0.1, "coverage": 0.92, "se": 0.01}])
    >>> plt.close(fig)
    """
    _check_ax(ax)
    summary = _check_summary(summary, ("method", "delta", "coverage", "se"))
    methods, labels = _check_methods(methods, labels, summary)
    n_se = check_float(n_se, "n_se", minimum=0)
    nominal = sorted({1 - r["delta"] for r in summary})
    lo, hi = min(nominal + [r["coverage"] for r in summary]), 1.0
    ax.plot(
        [lo - 0.02, hi],
        [lo - 0.02, hi],
        color=COLORS["nominal"],
        linestyle="--",
        linewidth=1,
        label="nominal 1 − δ",
    )
    offsets = np.linspace(-0.006, 0.006, len(methods)) if len(methods) > 1 else [0.0]
    for off, m in zip(offsets, methods, strict=True):
        rows = sorted((r for r in summary if r["method"] == m), key=lambda r: -r["delta"])
        if not rows:
            continue
        x = np.array([1 - r["delta"] for r in rows]) + off
        y = np.array([r["coverage"] for r in rows])
        e = n_se * np.array([r["se"] for r in rows])
        color, marker = COVERAGE_STYLE.get(m, (None, "o"))
        ax.errorbar(
            x,
            y,
            yerr=e,
            color=color,
            marker=marker,
            linestyle="-",
            linewidth=1,
            markersize=4,
            capsize=2,
            label=labels.get(m, m),
        )
    ax.set_ylim(top=1.01)
    ax.set_xlabel("nominal level 1 − δ")
    ax.set_ylabel("coverage P(estimate ≥ true risk)")


def plot_slack_vs_n(ax, summary, methods=None, labels=None) -> None:
    """Slack (estimate − true risk) against ``n``: median and 5–95% band.

    Parameters
    ----------
    ax : matplotlib Axes
    summary : list of dict
        Rows of :func:`cvbook.studies.bound_coverage.summarize` for one ``(k, delta)``.
    methods : sequence of str, optional
    labels : dict, optional

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> plot_slack_vs_n(ax, [{"method": "kfold", "n": 100, "slack_q05": -0.05,
    ...                       "slack_q50": 0.0, "slack_q95": 0.05}])
    >>> plt.close(fig)
    """
    _check_ax(ax)
    summary = _check_summary(summary, ("method", "n", "slack_q05", "slack_q50", "slack_q95"))
    methods, labels = _check_methods(methods, labels, summary)
    for m in methods:
        rows = sorted((r for r in summary if r["method"] == m), key=lambda r: r["n"])
        if not rows:
            continue
        n = np.array([r["n"] for r in rows])
        color, marker = COVERAGE_STYLE.get(m, (None, "o"))
        ax.plot(
            n,
            [r["slack_q50"] for r in rows],
            color=color,
            marker=marker,
            markersize=4,
            label=labels.get(m, m),
        )
        ax.fill_between(
            n,
            [r["slack_q05"] for r in rows],
            [r["slack_q95"] for r in rows],
            color=color,
            alpha=0.15,
            linewidth=0,
        )
    ax.axhline(0.0, color=COLORS["truth"], linewidth=1)
    ax.set_xscale("log")
    ax.set_xticks(
        sorted({r["n"] for r in summary}), [str(v) for v in sorted({r["n"] for r in summary})]
    )
    ax.minorticks_off()
    ax.set_xlabel("n (points available)")
    ax.set_ylabel("slack = estimate − true risk")


def _check_ax(ax: Any) -> None:
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise ArgumentTypeError(
            f"ax must be a matplotlib Axes (e.g. from plt.subplots()), got {type(ax).__name__}"
        )


def _check_str(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be a string, got {value!r}")
    return value


def _check_summary(summary: Any, keys: tuple[str, ...]) -> list[dict]:
    """A non-empty list of dicts that each hold ``keys``."""
    if isinstance(summary, (str, bytes, dict)) or not isinstance(summary, Sequence):
        raise ArgumentTypeError(
            f"summary must be a list of dicts (rows of "
            f"cvbook.studies.bound_coverage.summarize), got {type(summary).__name__}"
        )
    if len(summary) == 0:
        raise ValueError("summary must hold at least one row, got an empty list")
    for i, row in enumerate(summary):
        check_keys(row, f"summary[{i}]", keys, "a dict (a summary row)")
    return list(summary)


def _check_methods(methods: Any, labels: Any, summary: list[dict]) -> tuple[list, dict]:
    if methods is None:
        methods = list(dict.fromkeys(r["method"] for r in summary))
    elif isinstance(methods, str) or not isinstance(methods, Sequence) or len(methods) == 0:
        raise ArgumentTypeError(
            f"methods must be a non-empty list of method names, got {methods!r}"
        )
    labels = {} if labels is None else labels
    if not isinstance(labels, dict):
        raise ArgumentTypeError(f"labels must be a dict from method to label, got {labels!r}")
    return list(methods), labels


def estimate_boxplot(
    ax,
    errors: Any,
    labels: Sequence[str],
    colors: Sequence[str] | None = None,
    xlabel: str = "estimate − true risk",
    show_mean: bool = True,
) -> dict:
    """Horizontal box plots of estimation errors, one box per estimate, with means and zero.

    The figure chapters 2 and 3 draw to compare estimates of a risk: each column of
    ``errors`` holds one estimate minus its target over many data sets; the boxes show
    their spread, a diamond their mean, and a vertical line the zero of a perfect estimate.

    Parameters
    ----------
    ax : matplotlib Axes
    errors : array_like of shape (n_repeats, n_estimates)
        Finite numbers; column ``j`` is drawn at height ``j + 1``.
    labels : sequence of str
        One label per column.
    colors : sequence of str, optional
        One box colour per column (default: the book's colour cycle).
    xlabel : str, default="estimate − true risk"
    show_mean : bool, default=True
        Mark each column's mean with a diamond (labelled "mean" in a legend).

    Returns
    -------
    dict
        What :meth:`matplotlib.axes.Axes.boxplot` returns.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> parts = estimate_boxplot(ax, [[0.1, -0.2], [0.0, 0.1], [0.2, 0.0]], ["a", "b"])
    >>> len(parts["boxes"])
    2
    >>> plt.close(fig)
    """
    from matplotlib.axes import Axes

    from .validation import ArgumentTypeError, check_bool, check_finite

    if not isinstance(ax, Axes):
        raise ArgumentTypeError(
            f"ax must be a matplotlib Axes (e.g. from plt.subplots()), got {type(ax).__name__}"
        )
    errors = check_finite(errors, "errors")
    if errors.ndim == 1:
        errors = errors[:, None]
    if errors.ndim != 2 or errors.shape[0] == 0 or errors.shape[1] == 0:
        raise ValueError(
            f"errors must have shape (n_repeats, n_estimates) with both >= 1, "
            f"got shape {errors.shape}"
        )
    n = errors.shape[1]
    if (
        isinstance(labels, str)
        or not isinstance(labels, Sequence)
        or len(labels) != n
        or not all(isinstance(lab, str) for lab in labels)
    ):
        raise ArgumentTypeError(
            f"labels must be a list of {n} strings (one per column of errors), got {labels!r}"
        )
    if colors is None:
        cycle = mpl.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
        colors = [cycle[j % len(cycle)] for j in range(n)]
    if isinstance(colors, str) or not isinstance(colors, Sequence) or len(colors) != n:
        raise ArgumentTypeError(f"colors must be a list of {n} colours, got {colors!r}")
    if not isinstance(xlabel, str):
        raise ArgumentTypeError(f"xlabel must be a string, got {xlabel!r}")
    show_mean = check_bool(show_mean, "show_mean")
    parts = ax.boxplot(
        errors, orientation="horizontal", tick_labels=list(labels), patch_artist=True, widths=0.5
    )
    for patch, color in zip(parts["boxes"], colors, strict=True):
        patch.set_facecolor(color)
        patch.set_alpha(0.5)
    if show_mean:
        ax.plot(errors.mean(axis=0), np.arange(1, n + 1), "D", color=COLORS["truth"], label="mean")
        ax.legend(loc="lower right")
    ax.axvline(0, color=COLORS["truth"], linewidth=1)
    ax.set_xlabel(xlabel)
    return parts
