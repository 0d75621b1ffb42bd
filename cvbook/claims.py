"""Claims: every comparison a chapter states, as a named object with a target and a verdict.

A sentence of the book that compares ("2-fold is pessimistic", "LOO is unbiased within
±0.02", "the bound covers at its level") rests on a :class:`Claim`: an id, the sentence,
the target the estimate is scored against (``L(f_S)``, ``Err_n at n = 0.9 m``, ...), the
estimate with its standard error or an interval, and a kind:

* ``greater`` / ``less`` than a value: the interval ``estimate ± z·se`` (z = 4, the
  book's rule, unless stated) lies wholly above / below it;
* ``within`` ±margin of a centre: an equivalence claim, shown when the whole interval lies
  inside the margin. The margin is a difference a reader would care about, stated in
  the prose, never the one the run happened to give;
* ``covers`` / ``excludes`` a level: a coverage's Clopper–Pearson interval holds / does
  not hold the nominal level.

Each claim gets a verdict: *shown*, *not resolved* (the interval straddles the line) or
*contradicted* (resolved the other way). A claim that a run cannot compute at some legal
settings (a risk of 0 leaves no spread to compare; a constant column has no standard
deviation) is recorded with :meth:`Claims.skip` as *not made*, with its reason: its numbers
read "n/a" in the prose and it stands in the table, and a strict run stops on it as on
any claim that is not shown. A chapter makes one :class:`Claims` in its check
cell, ``strict`` at its default sizes: there, a claim that is not shown stops the run at
once with a :class:`ClaimError` that names it and gives its numbers, under any seed. At
any other legal parameters nothing stops, and :meth:`Claims.show` tells the reader which
of the chapter's statements hold under their settings. Identities and invariants stay
plain ``assert`` statements.

Every claim publishes its numbers for the prose (``N.<id>``, ``N.<id>_z``,
``N.<id>_verdict``; ``N.<id>_z`` reads ``"n/a"`` for a claim on an interval, which has no
z, and for a claim not made: a run publishes the same names whichever claims it could
make, so a re-run's numbers compare name by name), and :meth:`Claims.show` displays the
chapter's table with a machine-readable copy (MIME type :data:`CLAIMS_MIME`) from which
``tools/ledger.py`` builds the appendix's ledger of every claim of the book.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from .book import format_number, format_pm, publish
from .validation import check_float

__all__ = ["CLAIMS_MIME", "KINDS", "VERDICTS", "Claim", "ClaimError", "Claims", "sign_test_n"]

#: The MIME type of the machine-readable claim table in a chapter's last output.
CLAIMS_MIME = "application/vnd.cvbook.claims+json"
#: The kinds of claim.
KINDS = ("greater", "less", "within", "covers", "excludes")
#: The verdicts, best first.
VERDICTS = ("shown", "not resolved", "contradicted", "not made")
#: What a skipped claim publishes for each of its numbers.
NOT_MADE = "n/a"
#: The book's rule: an estimate is resolved when it lies 4 standard errors from the line.
DEFAULT_Z = 4.0

_PREFIX = re.compile(r"^ch[0-9]+[a-z]?$")


def sign_test_n(z: float = DEFAULT_Z) -> int:
    """How many equal paired differences a claim needs when their standard error is 0.

    A :class:`~cvbook.stats.Paired` whose ``n`` differences are all the same has SE 0,
    and its ``mean ± z·SE`` would show any nonzero mean. Then the sign test speaks
    instead: ``n`` equal signs have two-sided probability ``2^(1-n)`` under a symmetric
    null, which reaches the level of ``z`` standard errors, ``2 Φ(-z)``, from this ``n``
    on (15 at z = 4). Below it, such a claim is *not resolved*; so is any claim on an SE
    of 0 that carries no count of equal differences (a ``Difference``, a plain float).

    Examples
    --------
    >>> sign_test_n(4.0), sign_test_n(2.0)
    (15, 6)
    """
    z = check_float(z, "z", minimum=0.0)
    return math.ceil(1 - math.log2(math.erfc(z / math.sqrt(2))))


class ClaimError(AssertionError):
    """A claim that the chapter's default run did not show (it names the claim)."""


@dataclass(frozen=True)
class Claim:
    """One comparison the prose states, with its numbers and its verdict.

    ``low`` and ``high`` are the interval the verdict reads: ``estimate ± z·se`` when a
    standard error is given, otherwise the interval the claim was given. ``value`` is the
    line of a ``greater``/``less`` claim, the level of ``covers``/``excludes`` and the
    centre of ``within``; ``margin`` is the half-width of ``within`` (else ``None``).
    ``reason`` is set only on a claim that was not made (:meth:`Claims.skip`): its numbers
    are NaN and its verdict is *not made*. ``note`` is set only on a claim whose standard
    error is 0 and which therefore resolves nothing (see :meth:`Claims.greater`): it says
    why, and :attr:`test` carries it into the table and the ledger.

    Examples
    --------
    >>> c = Claim("ch0_x", "x is positive", "L(f_S)", "greater", 0.5, 0.1, 0.1, 0.9, 0.0,
    ...           None, 4.0)
    >>> c.verdict, round(c.z, 1)
    ('shown', 5.0)
    """

    id: str
    sentence: str
    target: str
    kind: str
    estimate: float
    se: float | None
    low: float
    high: float
    value: float
    margin: float | None
    z_rule: float | None
    reason: str | None = field(default=None, repr=False)
    note: str | None = field(default=None, repr=False)

    @property
    def z(self) -> float | None:
        """``(estimate - value) / se``, or ``None`` without a standard error."""
        if self.se is None or self.reason is not None:
            return None
        diff = self.estimate - self.value
        if self.se == 0:
            return 0.0 if diff == 0 else math.copysign(math.inf, diff)
        return diff / self.se

    @property
    def verdict(self) -> str:
        """*shown*, *not resolved*, *contradicted* or *not made* (see the module's docstring)."""
        if self.reason is not None:
            return "not made"
        lo, hi, v = self.low, self.high, self.value
        if self.kind == "greater":
            return "shown" if lo > v else "contradicted" if hi < v else "not resolved"
        if self.kind == "less":
            return "shown" if hi < v else "contradicted" if lo > v else "not resolved"
        if self.kind == "within":
            a, b = v - self.margin, v + self.margin
            if a <= lo and hi <= b:
                return "shown"
            return "contradicted" if hi < a or lo > b else "not resolved"
        if self.kind == "covers":
            if not lo <= v <= hi:
                return "contradicted"
            narrow = self.margin is None or (v - self.margin <= lo and hi <= v + self.margin)
            return "shown" if narrow else "not resolved"
        return "not resolved" if lo <= v <= hi else "shown"  # excludes

    @property
    def test(self) -> str:
        """What the claim asks, in words (``> 0 at z = 4``, ``within ±0.02``, ``covers 0.95``)."""
        if self.reason is not None:
            return f"not made: {self.reason}"
        rule = f" at z = {format_number(self.z_rule, 'g')}" if self.z_rule is not None else ""
        v = format_number(self.value, ".3g")
        note = f" ({self.note})" if self.note is not None else ""
        if self.kind == "greater":
            return f"> {v}{rule}{note}"
        if self.kind == "less":
            return f"< {v}{rule}{note}"
        if self.kind == "within":
            around = "" if self.value == 0 else f" of {v}"
            return f"within ±{format_number(self.margin, '.3g')}{around}{rule}{note}"
        if self.kind == "covers" and self.margin is not None:
            return f"covers {v}, interval within ±{format_number(self.margin, '.3g')}"
        return f"{self.kind} {v}"

    def numbers(self, digits: int = 3) -> str:
        """The estimate with its SE (``+0.004 ± 0.003``) or its interval (``0.66 [0.61, 0.70]``)."""
        if self.reason is not None:
            return NOT_MADE
        if self.se is not None:
            return format_pm(self.estimate, self.se, digits=digits)
        fmt = f".{digits}f"
        return (
            f"{format_number(self.estimate, fmt)} "
            f"[{format_number(self.low, fmt)}, {format_number(self.high, fmt)}]"
        )

    def describe(self) -> str:
        """One line naming the claim, its numbers, its test and its verdict."""
        if self.reason is not None:
            return f"{self.id} ({self.sentence}; target {self.target}): not made, {self.reason}"
        z = f", z = {self.z:+.1f}" if self.z is not None else ""
        return (
            f"{self.id} ({self.sentence}; target {self.target}): {self.numbers()}{z}, "
            f"interval [{self.low:.4g}, {self.high:.4g}], asks {self.test}: {self.verdict}"
        )

    def record(self) -> dict[str, Any]:
        """The claim as a JSON-ready dict (its fields, ``z``, ``test`` and ``verdict``)."""
        out = asdict(self)
        if self.reason is None:  # only a claim not made carries a reason
            del out["reason"]
        if self.note is None:  # only a claim on an SE of 0 carries a note
            del out["note"]
        out.update(z=self.z, test=self.test, verdict=self.verdict, numbers=self.numbers())
        return {
            k: (None if isinstance(v, float) and not math.isfinite(v) else v)
            for k, v in out.items()
        }


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise TypeError(f"{name} must be a non-empty string, got {value!r}")
    return value.strip()


class Claims:
    """The claims of one chapter's run: made in its check cell, shown in its last cell.

    Parameters
    ----------
    chapter : str
        The chapter's prefix of published names (``"ch4"``, ``"ch5b"``); every claim id
        starts with it and an underscore.
    strict : bool
        True at the chapter's default sizes (any seed): a claim that is not *shown* raises
        :class:`ClaimError` at once. False at other legal parameters: verdicts are
        recorded and shown, nothing stops.

    Examples
    --------
    >>> claims = Claims("ch0", strict=True)
    >>> c = claims.greater("ch0_gap", "the gap is positive", target="L(f_S)",
    ...                    estimate=0.05, se=0.01)
    >>> from cvbook.book import published
    >>> c.verdict, published()["ch0_gap"], published()["ch0_gap_z"]
    ('shown', '0.050 ± 0.010', '+5.0')
    >>> claims.within("ch0_same", "no difference within ±0.01", target="Err_n",
    ...               estimate=0.004, se=0.003, margin=0.01)
    Traceback (most recent call last):
    ...
    cvbook.claims.ClaimError: a claim of the default run is not shown: ch0_same ...
    """

    def __init__(self, chapter: str, *, strict: bool) -> None:
        if not isinstance(chapter, str) or not _PREFIX.match(chapter):
            raise ValueError(f"chapter must be a prefix such as 'ch4' or 'ch5b', got {chapter!r}")
        if not isinstance(strict, bool):
            raise TypeError(f"strict must be True or False, got {strict!r}")
        self.chapter = chapter
        self.strict = strict
        self._claims: dict[str, Claim] = {}

    # --- the five kinds --------------------------------------------------------------

    def greater(
        self,
        id: str,
        sentence: str,
        *,
        target: str,
        estimate: Any,
        se: Any = None,
        interval: Any = None,
        value: float = 0.0,
        z: float = DEFAULT_Z,
        digits: int = 3,
    ) -> Claim:
        """Claim that the estimate is above ``value`` (its whole interval is).

        Parameters
        ----------
        id : str
            ``<chapter>_<name>``, an identifier; the prose reads ``N.<id>``.
        sentence : str
            The short sentence of the prose that the claim backs.
        target : str
            What the estimate is scored against (``"L(f_S)"``, ``"Err_n, n = 0.9 m"``).
        estimate : float, Paired or Difference
            The estimate; a :class:`cvbook.stats.Paired` (a paired difference over ``n``
            repetitions) or :class:`cvbook.stats.Difference` (two independent estimates,
            :func:`cvbook.stats.proportion_difference`) brings its own ``se``.
        se : float, optional
            Its standard error (with a plain float only): the interval is
            ``estimate ± z·se``. An SE of 0 resolves nothing by itself: a ``Paired`` of
            ``n`` equal differences resolves the claim only from the sign test's ``n`` at
            ``z`` on (:func:`sign_test_n`, 15 at z = 4); a ``Difference`` or a plain float
            with SE 0 (both proportions 0 or 1, say) carries no count, and its claim is
            always *not resolved*, its :attr:`Claim.test` saying why.
        interval : (float, float), optional
            Or the interval itself (Clopper–Pearson, Fisher z, Pitman–Morgan ...).
        value : float, default=0
            The line the estimate must clear.
        z : float, default=4
            Standard errors between the estimate and the line (with ``se`` only).
        digits : int, default=3
            Decimals of the published ``N.<id>``.
        """
        return self._add("greater", id, sentence, target=target, estimate=estimate, se=se,
                         interval=interval, value=value, z=z, digits=digits)  # fmt: skip

    def less(self, id: str, sentence: str, **numbers: Any) -> Claim:
        """Claim that the estimate is below ``value``; arguments as :meth:`greater`."""
        return self._add("less", id, sentence, **numbers)

    def within(self, id: str, sentence: str, *, margin: float, center: float = 0.0,
               **numbers: Any) -> Claim:  # fmt: skip
        """Claim equivalence: the whole interval lies within ``center ± margin``.

        ``margin`` is a difference a reader would care about, stated in the prose; the
        other arguments are those of :meth:`greater`.
        """
        margin = check_float(margin, "margin", minimum=0.0)
        if margin == 0:
            raise ValueError("margin must be > 0: no interval lies within a zero margin")
        return self._add("within", id, sentence, value=center, margin=margin, **numbers)

    def covers(self, id: str, sentence: str, *, level: float, margin: float | None = None,
               **numbers: Any) -> Claim:  # fmt: skip
        """Claim that a coverage's ``interval`` (Clopper–Pearson) holds the nominal ``level``.

        Without ``margin`` the claim is *shown* whenever the interval holds the level, however
        wide it is: it can only be contradicted, so a few data sets "show" it. With
        ``margin``, it is *shown* only when the interval also lies within ``level ±
        margin`` (the run could have told a coverage ``margin`` away from the level), and
        *not resolved* when the level is inside a wider interval.
        """
        if margin is not None:
            margin = check_float(margin, "margin", minimum=0.0)
            if margin == 0:
                raise ValueError("margin must be > 0: no interval lies within a zero margin")
        return self._add("covers", id, sentence, value=level, margin=margin, z=None, **numbers)

    def excludes(self, id: str, sentence: str, *, level: float, **numbers: Any) -> Claim:
        """Claim that a coverage's ``interval`` lies wholly on one side of ``level``."""
        return self._add("excludes", id, sentence, value=level, z=None, **numbers)

    def skip(self, id: str, sentence: str, *, target: str, reason: str) -> Claim:
        """Record a claim that this run cannot make, with the reason: its verdict is *not made*.

        Some legal settings leave a claim without numbers: at a true risk of 0 every test
        error is 0 and there is no spread to compare with the binomial one; in a tiny run a
        column can be constant and have no standard deviation. The claim is then still
        listed, with its sentence, target and reason, and it publishes ``N.<id>``,
        ``N.<id>_z`` and ``N.<id>_verdict`` as ``"n/a"``, ``"n/a"`` and ``"not made"``, so
        that the prose that cites it reads "n/a" rather than a missing value. A strict run
        (the chapter's default sizes) stops on it with :class:`ClaimError`, as on any claim
        that is not shown: at the default sizes every claim must be made.

        Parameters
        ----------
        id, sentence, target : str
            As in :meth:`greater`.
        reason : str
            Why the run cannot make the claim (shown in the table and the error).

        Returns
        -------
        Claim

        Examples
        --------
        >>> claims = Claims("ch0", strict=False)
        >>> c = claims.skip("ch0_sd", "the spread is binomial", target="sqrt(L(1-L)/m)",
        ...                 reason="a true risk of 0 leaves no spread")
        >>> from cvbook.book import published
        >>> c.verdict, published()["ch0_sd"], published()["ch0_sd_verdict"]
        ('not made', 'n/a', 'not made')
        >>> Claims("ch0", strict=True).skip("ch0_sd", "the spread is binomial",
        ...                                 target="sqrt(L(1-L)/m)", reason="no spread")
        Traceback (most recent call last):
        ...
        cvbook.claims.ClaimError: a claim of the default run is not shown: ch0_sd ...
        """
        self._check_id(id)
        sentence, target = _text(sentence, "sentence"), _text(target, "target")
        reason = _text(reason, "reason")
        nan = math.nan
        claim = Claim(id, sentence, target, "skipped", nan, None, nan, nan, nan, None, None, reason)
        return self._record(claim, {id: NOT_MADE, f"{id}_z": NOT_MADE})

    # --- reading them back -----------------------------------------------------------

    def __iter__(self):
        return iter(self._claims.values())

    def __len__(self) -> int:
        return len(self._claims)

    def __getitem__(self, id: str) -> Claim:
        try:
            return self._claims[id]
        except KeyError:
            raise KeyError(
                f"no claim named {id!r}; this chapter has {sorted(self._claims)}"
            ) from None

    def table(self) -> str:
        """The claims as a Markdown table: id, sentence, target, numbers, test, verdict."""
        rows = [
            "| claim | statement | target | estimate | asks | verdict |",
            "|---|---|---|---|---|---|",
        ]
        for c in self:
            cells = (f"`{c.id}`", c.sentence, c.target, c.numbers(), c.test, f"**{c.verdict}**")
            rows.append("| " + " | ".join(s.replace("|", "\\|") for s in cells) + " |")
        return "\n".join(rows)

    def records(self) -> dict[str, Any]:
        """The machine-readable table: chapter, strict, and each claim's :meth:`Claim.record`."""
        return {
            "chapter": self.chapter,
            "strict": self.strict,
            "claims": [c.record() for c in self],
        }

    def show(self) -> None:
        """Display the chapter's claim table and publish how many claims were shown.

        Publishes ``N.<chapter>_claims_shown`` and ``N.<chapter>_claims_total``. The
        display carries Markdown (shown in JupyterLab and on the site) and the
        :data:`CLAIMS_MIME` copy the ledger is built from.
        """
        shown = sum(c.verdict == "shown" for c in self)
        publish({f"{self.chapter}_claims_shown": shown, f"{self.chapter}_claims_total": len(self)})
        head = (
            f"{shown} of {len(self)} claims shown"
            + ("" if self.strict else " (a run at other than the default sizes: none is required)")
            + ".\n\n"
        )
        try:
            from IPython.display import display
        except ImportError:  # pragma: no cover - IPython comes with every kernel
            print(head + self.table())
            return
        display({"text/markdown": head + self.table(), CLAIMS_MIME: self.records()}, raw=True)

    # --- one door for all five --------------------------------------------------------

    def _add(
        self,
        kind: str,
        id: str,
        sentence: str,
        *,
        target: str,
        estimate: Any,
        se: Any = None,
        interval: Any = None,
        value: float = 0.0,
        margin: float | None = None,
        z: float | None = DEFAULT_Z,
        digits: int = 3,
    ) -> Claim:
        self._check_id(id)
        sentence, target = _text(sentence, "sentence"), _text(target, "target")
        note = None  # why a claim on an SE of 0 resolves nothing
        n_equal = None  # the number of paired differences, when all of them are equal (SE 0)
        if (
            hasattr(estimate, "mean")
            and hasattr(estimate, "se")
            and not isinstance(estimate, (int, float))
        ):
            if se is not None:
                raise TypeError(
                    f"{id}: give se only with a plain estimate, not with a "
                    f"{type(estimate).__name__} (it brings its own se)"
                )
            if estimate.se == 0 and getattr(estimate, "n", None) is not None:
                n_equal = int(estimate.n)
            estimate, se = estimate.mean, estimate.se
        estimate = check_float(estimate, f"{id}: estimate")
        value = check_float(value, "value" if kind in ("greater", "less") else "level")
        if (se is None) == (interval is None):
            raise TypeError(f"{id}: give the estimate's se or its interval (one of them)")
        if se is not None:
            if z is None:
                raise TypeError(f"{id}: a {kind} claim reads a coverage's interval, not an se")
            se = check_float(se, f"{id}: se", minimum=0.0)
            z = check_float(z, f"{id}: z", minimum=0.0)
            if z == 0:
                raise ValueError("z must be > 0")
            low, high = estimate - z * se, estimate + z * se
            if se == 0 and (n_equal is None or n_equal < sign_test_n(z)):
                # an SE of 0 resolves nothing: n equal differences only from the sign test's
                # n at z on; without a count (a Difference, a plain estimate) never
                if n_equal is None:
                    note = "SE 0 and no count of equal differences: resolves nothing"
                else:
                    note = (
                        f"SE 0 from {n_equal} equal differences: resolves nothing below "
                        f"the sign test's {sign_test_n(z)}"
                    )
                half = max(abs(estimate - value), margin or 0.0) * 2 or 1.0
                low, high = value - half, value + half
        else:
            try:
                low, high = (float(check_float(x, "interval")) for x in interval)
            except (TypeError, ValueError):
                raise TypeError(
                    f"{id}: interval must be a pair (low, high) of finite numbers, got {interval!r}"
                ) from None
            if low > high:
                raise ValueError(f"{id}: interval must have low <= high, got ({low}, {high})")
            if z not in (DEFAULT_Z, None):
                raise TypeError(f"{id}: z applies to an se, not to a given interval")
            z = None
        claim = Claim(
            id,
            sentence,
            target,
            kind,
            estimate,
            se,
            float(low),
            float(high),
            value,
            margin,
            z,
            note=note,
        )
        named = {id: claim.numbers(digits)}
        # every claim publishes the same three names, made or not, with an se or an
        # interval: a re-run's names do not depend on which claims it could make
        if claim.z is None or not math.isfinite(claim.z):
            # an interval has no z, and an SE of 0 none a sentence can cite ("z = ∞" only
            # says the differences were all equal, which the verdict already reads)
            named[f"{id}_z"] = NOT_MADE
        else:
            named[f"{id}_z"] = (claim.z, "+.1f")
        return self._record(claim, named)

    def _check_id(self, id: Any) -> None:
        if (
            not isinstance(id, str)
            or not id.startswith(self.chapter + "_")
            or not id.isidentifier()
        ):
            raise ValueError(
                f"id must be an identifier starting with {self.chapter + '_'!r}, got {id!r}"
            )

    def _record(self, claim: Claim, named: dict[str, Any]) -> Claim:
        """Keep the claim, publish its numbers and verdict, and stop a strict run on it."""
        self._claims[claim.id] = claim
        publish({**named, f"{claim.id}_verdict": claim.verdict})
        if self.strict and claim.verdict != "shown":
            raise ClaimError(f"a claim of the default run is not shown: {claim.describe()}")
        return claim
