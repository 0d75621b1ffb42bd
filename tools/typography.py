"""Write the prose's dashes and quotes as the characters themselves (– — ’ ‘ “ ”).

The website's Sphinx turns ``--`` into an en dash, ``---`` into an em dash and straight
quotes into curly ones ("smart quotes"); jupyterlab-myst shows them as typed. Writing the
characters in the chapters' Markdown cells makes both show the same. Code (fenced and
inline, so every role's argument too), math (``$...$``, ``$$...$$``), link targets,
HTML, table rule rows and directive lines are left alone.

Usage::

    python tools/typography.py chapters/NN.ipynb          # rewrite the Markdown cells
    python tools/typography.py --check chapters/*.ipynb   # exit 1 where a cell would change
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

# Spans left as they are, in the order tried at each position.
_PROTECTED = re.compile(
    r"(?ms)"
    r"^(```|~~~).*?^\1[^\n]*$"  # fenced code
    r"|\$\$.*?\$\$"  # display math
    r"|(?<![\\$])\$(?=\S)[^$\n]*?(?<=\S)\$(?!\$)"  # inline math
    r"|`+[^`]*?`+"  # inline code, role arguments
    r"|\]\([^)\n]*\)"  # link targets
    r"|<[^>\n]*>"  # HTML, autolinks, comments on one line
    r"|^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$"  # table rules
    r"|^[ \t]*(-{3,}|\*{3,}|_{3,})[ \t]*$"  # horizontal rules, front matter fences
    r"|^[ \t]*:{3,}.*$"  # directive fences
    r"|^[ \t]*:[\w-]+:.*$"  # directive options
    r"|\{[\w:-]+\}"  # role and directive names
    r"|https?://\S+"  # bare URLs
)


def _smarten(text: str) -> str:
    text = text.replace("---", "—").replace("--", "–")
    text = re.sub(r"(?<=\w)'(?=\w)", "’", text)  # it's, don't
    text = re.sub(r"(^|[\s(\[{—–/])'", r"\1‘", text)
    text = text.replace("'", "’")
    text = re.sub(r'(^|[\s(\[{—–/])"', r"\1“", text)
    return text.replace('"', "”")


def smarten(markdown: str) -> str:
    """The Markdown with typographic dashes and quotes outside code, math and markup.

    Examples
    --------
    >>> print(smarten("Clopper--Pearson -- it's \\"exact\\" `a--b` $x--y$\\n|---|---|"))
    Clopper–Pearson – it’s “exact” `a--b` $x--y$
    |---|---|
    """
    out, last = [], 0
    for match in _PROTECTED.finditer(markdown):
        out.append(_smarten(markdown[last : match.start()]))
        out.append(match.group(0))
        last = match.end()
    out.append(_smarten(markdown[last:]))
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="report, do not write")
    args = parser.parse_args(argv)
    status = 0
    for path in args.paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        changed = 0
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "markdown":
                continue
            source = "".join(cell["source"])
            new = smarten(source)
            if new != source:
                changed += 1
                if args.check:
                    print(f"{path}: cell {i} has straight dashes or quotes")
                cell["source"] = new.splitlines(keepends=True)
        if changed and not args.check:
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            print(f"{path}: {changed} Markdown cells rewritten")
        status |= bool(changed and args.check)
    return status


if __name__ == "__main__":
    sys.exit(main())
