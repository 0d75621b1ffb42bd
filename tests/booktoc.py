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


if __name__ == "__main__":
    # Used by `make nbval`: the chapter notebooks, relative to the repository root.
    print(" ".join(str(p.relative_to(ROOT)) for p in chapter_notebooks()))
