"""The learners of chapters 6, 7 and 9: one registry, one name per estimator configuration.

Every learner a study or a command line names is an entry of :data:`LEARNERS`: the name,
a factory that builds a fresh, unfitted estimator, the grid a study tunes it over (where
one does), and a one-line description. The same configuration has the same name in every
chapter, and two configurations never share one: chapter 7's RBF SVM (used as it is,
C = 1) and chapter 6's (C tuned over the entry's grid {1, 10} by the study's selection)
are the same estimator, ``"svm"``; chapter 9's SVM that tunes C and gamma inside each fit
is another, ``"svm_tuned"``; and (``"lda"`` is scikit-learn's default LDA, ``"lda_shrinkage"``
the least-squares LDA whose shrinkage a study tunes). A study accepts a subset of the
names and says which (``INTERVAL_LEARNERS``, ``BOOTSTRAP_LEARNERS``, ``COVERAGE_LEARNERS``);
:func:`get_learner` is the one lookup, and refuses any other name with the package's one
message form.

Records written before this registry name a learner by its old name: :data:`LEGACY_NAMES`
says, per kind of record, what it is called now, and :func:`current_name` applies it where
those records are read.

:class:`OneClassFallback` is the one definition of a learner on a training set of one
class (the constant rule that predicts it), used where a small random training set can
hold one class: chapter 3's bias-variance study and :class:`TunedSVC`.

A grid of *candidates* that a chapter selects among
(:func:`cvbook.studies.selection.candidate_grid`: a family, a hyperparameter and its
values, a value fixed in advance) is another idea and lives with the selection study; its
``"svm"`` family is built on this registry's ``"svm"``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.validation import check_is_fitted

from .validation import (
    ArgumentTypeError,
    Options,
    check_estimator_arg,
    check_features,
    check_float,
    check_int,
    check_xy,
    validate_params,
)

__all__ = [
    "LEARNERS",
    "LEGACY_NAMES",
    "Learner",
    "OneClassFallback",
    "TunedSVC",
    "current_name",
    "get_learner",
]


def _check_grid_values(values: Any, name: str) -> None:
    """A non-empty sequence of positive finite numbers (a grid of ``C`` or ``gamma``)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise ArgumentTypeError(f"{name} must be a sequence of positive numbers, got {values!r}")
    if len(values) == 0:
        raise ValueError(f"{name} must hold at least one value, got none")
    for v in values:
        check_float(v, name, minimum=0, exclusive=True)


class OneClassFallback(ClassifierMixin, BaseEstimator):
    """A classifier, or the constant rule when its training set holds one class only.

    A small training set drawn at random can hold a single class; most classifiers
    (scikit-learn's :class:`~sklearn.svm.SVC`, for one) then refuse to fit. This
    meta-estimator defines the learner on such a set as the rule that predicts that class,
    and is ``estimator`` itself on any set with two classes or more: ``fit`` fits a clone
    of it on the same ``(X, y)`` and ``predict`` returns its labels unchanged.

    Parameters
    ----------
    estimator : scikit-learn classifier
        The learner; checked by ``fit`` (the package's one estimator check), as
        scikit-learn's conventions ask.

    Attributes
    ----------
    classes_ : ndarray
        The classes of the training set (one, or more).
    estimator_ : estimator or None
        The fitted clone of ``estimator``; ``None`` after a one-class fit.
    one_class_ : bool
        Whether the last fit met one class only (and predicts it).

    Examples
    --------
    >>> from sklearn.svm import SVC
    >>> X = np.array([[0.0], [1.0], [2.0]])
    >>> OneClassFallback(SVC()).fit(X, [1, 1, 1]).predict([[5.0], [-5.0]])
    array([1, 1])
    >>> OneClassFallback(SVC()).fit(X, [0, 1, 1]).estimator_.__class__.__name__
    'SVC'
    >>> OneClassFallback("svm").fit(X, [0, 1, 1])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cvbook.validation.ArgumentTypeError: estimator must be a scikit-learn estimator ...
    """

    def __init__(self, estimator: Any) -> None:
        self.estimator = estimator

    def fit(self, X: Any, y: Any) -> OneClassFallback:
        """Fit a clone of ``estimator`` on ``(X, y)``, or store the one class of ``y``."""
        check_estimator_arg(self.estimator, "estimator")
        classes = np.unique(np.asarray(y))
        if len(classes) >= 2:  # exactly the estimator: same data, same call
            self.estimator_ = clone(self.estimator).fit(X, y)
            self.classes_ = getattr(self.estimator_, "classes_", classes)
            self.one_class_ = False
            return self
        X, y = check_xy(X, y)
        self.classes_, self.estimator_, self.one_class_ = np.unique(y), None, True
        return self

    def predict(self, X: Any) -> np.ndarray:
        """The fitted estimator's labels, or the one class for every row.

        Before ``fit``, a ``sklearn.exceptions.NotFittedError``.
        """
        check_is_fitted(self, "classes_")
        if self.estimator_ is not None:
            return self.estimator_.predict(X)
        X = check_features(X, "X")
        return np.full(X.shape[0], self.classes_[0])


class TunedSVC(ClassifierMixin, BaseEstimator):
    """A Gaussian-kernel SVM that tunes ``C`` and ``gamma`` on its own training set.

    Each fit scores every ``(C, gamma)`` of the grid by stratified ``cv``-fold error on the
    training set (the first of equal errors wins, grid order), then refits the best on
    all of it: the learner "SVC tuned by grid search" as one estimator, so that every
    estimate of chapter 9 re-tunes inside each of its fits. It gives the same choice
    as :class:`sklearn.model_selection.GridSearchCV` with the same folds and
    ``scoring="accuracy"``, without its per-candidate overhead (checked in the tests).

    Parameters
    ----------
    Cs, gammas : sequence of float, default=(0.1, 1.0, 10.0) and (0.1, 0.5, 2.0)
        The grid: non-empty, positive numbers.
    cv : int, default=3
        Folds of the tuning, >= 2 (lowered to the size of the smaller class when that is
        smaller). The three are checked by ``fit``, as scikit-learn's conventions ask.

    Examples
    --------
    >>> from cvbook.datasets import TwoGaussians
    >>> X, y = TwoGaussians().sample(40, random_state=0)
    >>> sorted(TunedSVC().fit(X, y).best_params_)
    ['C', 'gamma']
    """

    def __init__(
        self,
        Cs: Sequence[float] = (0.1, 1.0, 10.0),
        gammas: Sequence[float] = (0.1, 0.5, 2.0),
        cv: int = 3,
    ) -> None:
        self.Cs = Cs
        self.gammas = gammas
        self.cv = cv

    def fit(self, X: Any, y: Any) -> TunedSVC:
        """Tune on ``(X, y)`` by stratified K-fold, then refit the best setting."""
        _check_grid_values(self.Cs, "Cs")
        _check_grid_values(self.gammas, "gammas")
        check_int(self.cv, "cv", minimum=2)
        X, y = check_xy(X, y)
        self.classes_, counts = np.unique(y, return_counts=True)
        grid = [(C, g) for C in self.Cs for g in self.gammas]
        if len(self.classes_) < 2:  # one class: nothing to tune; the constant rule
            self.best_params_ = {"C": grid[0][0], "gamma": grid[0][1]}
            self.model_ = OneClassFallback(SVC(C=grid[0][0], gamma=grid[0][1])).fit(X, y)
            return self
        errors = np.zeros(len(grid))
        k = max(2, min(self.cv, int(counts.min())))
        with warnings.catch_warnings():  # a class of one point: StratifiedKFold warns
            warnings.simplefilter("ignore", UserWarning)
            folds = list(StratifiedKFold(k).split(X, y))
        for tr, te in folds:
            if len(np.unique(y[tr])) < 2:
                continue
            for j, (C, g) in enumerate(grid):
                errors[j] += np.mean(SVC(C=C, gamma=g).fit(X[tr], y[tr]).predict(X[te]) != y[te])
        C, g = grid[int(np.argmin(errors))]
        self.best_params_ = {"C": C, "gamma": g}
        self.model_ = OneClassFallback(SVC(C=C, gamma=g)).fit(X, y)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """The refitted SVM's labels (the one class, if the training set had one).

        Before ``fit``, a ``sklearn.exceptions.NotFittedError``.
        """
        check_is_fitted(self, "classes_")
        return self.model_.predict(check_features(X, "X"))


@dataclass(frozen=True)
class Learner:
    """One entry of the registry: a factory, the grid a study tunes it over, a description.

    Attributes
    ----------
    name : str
        The registry's name (``"svm"``).
    factory : callable
        Builds a fresh, unfitted estimator.
    description : str
        One line, for the API page and the error messages.
    grid : mapping of str to tuple, default={}
        The values of each hyperparameter over which a study that tunes the learner
        searches (empty: no study tunes it; a study may also use the learner as it
        is). Read-only. :meth:`param_grid` gives it in scikit-learn's form.

    Examples
    --------
    >>> entry = get_learner("svm")
    >>> entry.make(), entry.param_grid()
    (SVC(), {'C': [1.0, 10.0]})
    """

    name: str
    factory: Callable[[], Any]
    description: str
    grid: Mapping[str, tuple] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # read-only, so that no caller changes the grid for the rest of the process
        grid = MappingProxyType({key: tuple(values) for key, values in self.grid.items()})
        object.__setattr__(self, "grid", grid)

    def make(self) -> Any:
        """A fresh, unfitted estimator of this configuration."""
        return self.factory()

    def param_grid(self) -> dict[str, list]:
        """The tuning grid as a new ``dict`` of lists (``{}`` when no study tunes it)."""
        return {key: list(values) for key, values in self.grid.items()}


def _entries(*entries: Learner) -> Mapping[str, Learner]:
    return MappingProxyType({entry.name: entry for entry in entries})


#: Every learner of the book, by name: one name per estimator configuration.
LEARNERS: Mapping[str, Learner] = _entries(
    Learner(
        "lda",
        LinearDiscriminantAnalysis,
        "linear discriminant analysis, scikit-learn's defaults (SVD solver, no shrinkage)",
    ),
    Learner(
        "lda_shrinkage",
        lambda: LinearDiscriminantAnalysis(solver="lsqr"),
        "least-squares LDA whose shrinkage is tuned over {0, 0.8}",
        {"shrinkage": (0.0, 0.8)},
    ),
    Learner(
        "qda_reg",
        QuadraticDiscriminantAnalysis,
        "quadratic discriminant analysis whose reg_param is tuned over {0, 0.5}",
        {"reg_param": (0.0, 0.5)},
    ),
    Learner(
        "logreg",
        lambda: LogisticRegression(C=1.0, max_iter=1000),
        "logistic regression, C = 1 (L2), up to 1,000 iterations",
    ),
    Learner(
        "svm",
        lambda: SVC(kernel="rbf", C=1.0, gamma="scale"),
        "Gaussian-kernel SVM, C = 1 and gamma='scale' (a study that tunes it: C in {1, 10})",
        {"C": (1.0, 10.0)},
    ),
    Learner(
        "svm_tuned",
        TunedSVC,
        "Gaussian-kernel SVM that tunes C and gamma on each training set (TunedSVC)",
    ),
    Learner(
        "1nn",
        lambda: KNeighborsClassifier(n_neighbors=1, algorithm="kd_tree"),
        "one nearest neighbour (a k-d tree: ties broken alike for any number of threads)",
    ),
    Learner(
        "tree",
        lambda: DecisionTreeClassifier(random_state=0),
        "a fully grown decision tree (zero training error)",
    ),
)


def _check_among(value: Any, name: str) -> None:
    """A sequence of names (a study's view of the registry)."""
    if (
        isinstance(value, (str, bytes))
        or not isinstance(value, Sequence)
        or not all(isinstance(v, str) for v in value)
    ):
        raise ArgumentTypeError(f"{name} must be a sequence of learner names, got {value!r}")


def _check_argument(value: Any, name: str) -> None:
    if not isinstance(value, str) or not value:
        raise ArgumentTypeError(f"{name} must be a non-empty str, got {value!r}")


#: Learner names of records written before this registry, by the command that wrote them
#: (``"coverage"``: :mod:`cvbook.runs.coverage`, chapter 6's ``results/coverage/``;
#: ``"bootstrap"``: :mod:`cvbook.runs.bootstrap`, chapter 9's ``results/bootstrap/``):
#: the old name and what it is called now. The old ``"svc"`` meant two learners: in
#: chapter 6 the RBF SVM with C tuned over {1, 10} (``"svm"``), in chapter 9 the SVM that
#: tunes C and gamma inside each fit (``"svm_tuned"``).
LEGACY_NAMES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "coverage": MappingProxyType({"svc": "svm"}),
        "bootstrap": MappingProxyType({"svc": "svm_tuned"}),
    }
)


def current_name(name: str, kind: str) -> str:
    """The registry's name for the learner a record of ``kind`` calls ``name``.

    A name of :data:`LEGACY_NAMES` ``[kind]`` is renamed; any other is returned as it is.

    Parameters
    ----------
    name : str
        The learner's name in the record.
    kind : {"coverage", "bootstrap"}
        The command that wrote the record (a key of :data:`LEGACY_NAMES`).

    Examples
    --------
    >>> current_name("svc", "coverage"), current_name("svc", "bootstrap")
    ('svm', 'svm_tuned')
    >>> current_name("lda", "bootstrap")
    'lda'
    """
    if not isinstance(kind, str) or kind not in LEGACY_NAMES:
        raise ValueError(f"kind must be one of {list(LEGACY_NAMES)}, got {kind!r}")
    if not isinstance(name, str):
        raise ArgumentTypeError(f"name must be a str (a learner's name), got {name!r}")
    return LEGACY_NAMES[kind].get(name, name)


@validate_params(
    {
        "among": [_check_among, None],
        "argument": _check_argument,
        "legacy": [Options(*LEGACY_NAMES), None],
    }
)
def get_learner(
    name: str,
    among: Sequence[str] | None = None,
    argument: str = "name",
    legacy: str | None = None,
) -> Learner:
    """The registry's entry called ``name``: the one lookup of a learner by name.

    Parameters
    ----------
    name : str
        A key of :data:`LEARNERS` (of ``among``, when given).
    among : sequence of str, optional
        The names a study accepts (its view of the registry); default: every name. A
        name of ``among`` outside the registry is a study's own rule (chapter 6's
        ``"default"`` picks an entry per distribution): the study resolves it before
        the lookup, which refuses it like any other.
    argument : str, default="name"
        The caller's name for ``name``, used in the error (``"learner"``, ``"--learner"``).
    legacy : {"coverage", "bootstrap"}, optional
        The records whose old names the caller may meet (a key of :data:`LEGACY_NAMES`):
        an old name is refused with what it is called now.

    Returns
    -------
    Learner
        ``.make()`` builds the estimator, ``.param_grid()`` gives its tuning grid.

    Raises
    ------
    ArgumentTypeError
        If ``name`` is not a str.
    ValueError
        If ``name`` is not one of the names allowed: ``"<argument> must be one of [...],
        got <name>"``.

    Examples
    --------
    >>> get_learner("svm").make()
    SVC()
    >>> get_learner("svm", among=("lda", "1nn"), argument="learner")
    Traceback (most recent call last):
    ...
    ValueError: learner must be one of ['lda', '1nn'], got 'svm'
    >>> get_learner("svc", among=("default", "svm"), argument="--learner", legacy="coverage")
    Traceback (most recent call last):
    ...
    ValueError: --learner must be one of ['default', 'svm'], got 'svc' (now called 'svm')
    """
    allowed = list(LEARNERS) if among is None else list(among)
    if not isinstance(name, str):
        raise ArgumentTypeError(f"{argument} must be one of {allowed}, got {name!r}")
    if name in allowed and name in LEARNERS:
        return LEARNERS[name]
    if name in allowed:
        raise ValueError(
            f"{argument} {name!r} is a study's own rule, not a learner of the registry: "
            "the study resolves it to a registry name before the lookup"
        )
    renamed = current_name(name, legacy) if legacy is not None else name
    hint = f" (now called {renamed!r})" if renamed != name else ""
    raise ValueError(f"{argument} must be one of {allowed}, got {name!r}{hint}")
