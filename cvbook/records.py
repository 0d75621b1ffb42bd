"""Records: what a study returns and what a long run leaves on disk.

:class:`RecordKeyError` is the error of a record object asked for a quantity it does not
hold: a ``KeyError`` (so ``in`` tests and ``dict``-like code behave) and a ``ValueError``
(the package's error for a bad argument), whose message names the key and the keys the
record holds.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["RecordKeyError", "missing_key"]


class RecordKeyError(KeyError, ValueError):
    """A record has no such key; the message names it and the keys it has.

    Examples
    --------
    >>> err = missing_key("oob", ["risk", "train"], "values")
    >>> isinstance(err, KeyError) and isinstance(err, ValueError)
    True
    >>> print(err)
    values has no key 'oob'; it holds ['risk', 'train']
    """

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0]) if self.args else ""


def missing_key(key: Any, keys: Iterable[Any], what: str) -> RecordKeyError:
    """The :class:`RecordKeyError` for ``key`` missing from ``what``, which holds ``keys``."""
    return RecordKeyError(f"{what} has no key {key!r}; it holds {sorted(map(str, keys))}")
