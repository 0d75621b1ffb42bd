"""What the tests know about the chapters: the notebooks listed in ``_toc.yml``."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def toc_files() -> list[str]:
    """Every ``file:`` entry of ``_toc.yml``, in reading order (without suffix)."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    found: list[str] = [toc["root"]]

    def walk(node) -> None:
        if isinstance(node, dict):
            if "file" in node:
                found.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc.get("parts", toc.get("chapters", [])))
    return found


def chapter_notebooks() -> list[Path]:
    """The chapter notebooks listed in ``_toc.yml``."""
    paths = [ROOT / f"{f}.ipynb" for f in toc_files()]
    return [p for p in paths if p.exists()]


#: Seconds each chapter takes, measured on 2026-11-26 on the 2-core machine of
#: ``make test``: ``default`` is the chapter's default run (jupyter-book's execution
#: table, two chapters at a time), ``papermill`` all of its runs in ``make papermill``
#: (``test_smoke_run_through_papermill``'s duration, which makes them; the mean of two
#: runs). They only decide the order in which work is handed to the two cores; a wrong
#: or missing entry costs time, never a check. Re-measure when a chapter's cost changes
#: much.
SECONDS: dict[str, dict[str, float]] = {
    "01_risk_and_test_error": {"default": 12, "papermill": 29},
    "02_holdout": {"default": 67, "papermill": 37},
    "03_kfold": {"default": 48, "papermill": 44},
    "04_loo": {"default": 20, "papermill": 56},
    "05_ckcv": {"default": 13, "papermill": 36},
    "05b_table1": {"default": 6, "papermill": 33},
    "06_coverage": {"default": 20, "papermill": 84},
    "07_intervals": {"default": 74, "papermill": 110},
    "08_dependence_and_leakage": {"default": 26, "papermill": 41},
    "09_bootstrap": {"default": 75, "papermill": 59},
    "10_which_is_better": {"default": 60, "papermill": 60},
}


def seconds(nb_path: Path, kind: str) -> float:
    """The measured cost of a chapter's ``kind`` of run (``"default"`` or
    ``"papermill"``); a chapter not measured yet counts as the mean of the others."""
    known = [entry[kind] for entry in SECONDS.values()]
    return SECONDS.get(nb_path.stem, {}).get(kind, sum(known) / len(known))


def heaviest_first(notebooks: list[Path], kind: str) -> list[Path]:
    """The chapters, the most expensive ``kind`` of run first (ties: reading order).

    Handing the long chapters out first leaves short ones for the end, when one core
    would otherwise wait for the other.
    """
    return sorted(notebooks, key=lambda p: -seconds(p, kind))


def balanced_shards(notebooks: list[Path], kind: str, n: int) -> list[list[Path]]:
    """The chapters split into ``n`` lists of about equal cost: each chapter, the most
    expensive first, goes to the list with the least work so far (longest processing
    time first, Graham 1969), within at most 4/3 of the best split.

    Examples
    --------
    >>> shards = balanced_shards(chapter_notebooks(), "papermill", 2)
    >>> sorted(p for shard in shards for p in shard) == sorted(chapter_notebooks())
    True
    """
    shards: list[list[Path]] = [[] for _ in range(n)]
    load = [0.0] * n
    for nb_path in heaviest_first(notebooks, kind):
        k = load.index(min(load))
        shards[k].append(nb_path)
        load[k] += seconds(nb_path, kind)
    return shards


if __name__ == "__main__":
    # Used by `make nbval`: the chapter notebooks, relative to the repository root, the
    # longest default run first (pytest-xdist hands them out in this order).
    order = heaviest_first(chapter_notebooks(), "default")
    print(" ".join(str(p.relative_to(ROOT)) for p in order))
