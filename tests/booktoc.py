"""What the tests know about the chapters: the notebooks listed in ``_toc.yml``."""

from __future__ import annotations

import json
import sys
import time
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


#: Seconds each chapter takes on the machine of ``make test``, as the runs that measure
#: them wrote them (``python tests/booktoc.py --record``, which ``make nbval`` and ``make
#: papermill`` call when they finish): ``default`` is the chapter's default run (wall
#: seconds, with ``default_cpu`` its kernel's CPU seconds: ``tests/nbval_executed.py``),
#: each with the date and the load average it was measured at
#: ``papermill`` all of its runs in ``make papermill`` (``tests/test_papermill.py``).
#: They only decide the order in which work is handed to the two cores; a wrong or
#: missing entry costs time, never a check.
COSTS_FILE = ROOT / "tests" / "chapter_costs.json"


def _load_costs() -> dict[str, dict]:
    return json.loads(COSTS_FILE.read_text()) if COSTS_FILE.exists() else {}


SECONDS: dict[str, dict] = _load_costs()


def record(kind: str, folder: Path) -> list[str]:
    """Write the times a run measured (``folder/*.json``: ``chapter``, ``wall_s`` and
    optionally ``cpu_s``) into :data:`COSTS_FILE` as ``kind``; return the chapters.

    Only the chapters measured change; whole seconds, so a re-run on the same machine
    moves few entries.
    """
    costs = _load_costs()
    done = []
    for path in sorted(Path(folder).glob("*.json")):
        entry = json.loads(path.read_text())
        row = costs.setdefault(entry["chapter"], {})
        row[kind] = round(float(entry["wall_s"]))
        if entry.get("cpu_s") is not None:
            row[f"{kind}_cpu"] = round(float(entry["cpu_s"]))
        when = time.gmtime(path.stat().st_mtime)
        row[f"measured_{kind}"] = time.strftime("%Y-%m-%d", when)
        if entry.get("load_average"):
            row[f"load_{kind}"] = entry["load_average"][0]
        done.append(entry["chapter"])
    COSTS_FILE.write_text(json.dumps(costs, indent=1, sort_keys=True) + "\n")
    return done


def seconds(nb_path: Path, kind: str) -> float:
    """The measured cost of a chapter's ``kind`` of run (``"default"`` or
    ``"papermill"``); a chapter not measured yet counts as the mean of the others.

    A default run counts its CPU seconds when they were measured: unlike its wall time,
    they do not grow when other work shares the machine."""
    if kind == "default" and all("default_cpu" in e for e in SECONDS.values()):
        kind = "default_cpu"
    known = [entry[kind] for entry in SECONDS.values() if kind in entry] or [60.0]
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
    # `python tests/booktoc.py`: the chapter notebooks, relative to the repository root,
    # the longest default run first (`make nbval` hands them to pytest-xdist in this
    # order). `python tests/booktoc.py --record KIND FOLDER`: write a run's times.
    if sys.argv[1:2] == ["--record"]:
        if len(sys.argv) != 4 or sys.argv[2] not in ("default", "papermill"):
            sys.exit("usage: python tests/booktoc.py --record default|papermill FOLDER")
        done = record(sys.argv[2], Path(sys.argv[3]))
        print(f"{COSTS_FILE.relative_to(ROOT)}: {sys.argv[2]} times of {len(done)} chapters")
    else:
        order = heaviest_first(chapter_notebooks(), "default")
        print(" ".join(str(p.relative_to(ROOT)) for p in order))
