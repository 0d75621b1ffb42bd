"""Complete K-fold cross-validation with k as a hyperparameter (chapter 5).

Anguita et al. (2012), Algorithm 1, tune the triple (C, gamma, k) of a
Gaussian-kernel SVM. For every grid point and every k, the data are split
``l_MC`` times at random into three parts: ``n // k`` points for model
selection (MS), ``n // k`` for error estimation (EE) and the rest for
training (TR). At split ``i``:

* ``f_TR`` is fit on TR; ``L_MS^(i)`` is the one-sided Clopper--Pearson bound
  of its errors on MS;
* ``f*_MS`` is refit on TR u MS; ``L_EE^(i)`` is the bound of its errors on EE.

``L_MS`` and ``L_EE`` are the means over the splits (the paper sums ``L_MS``;
the mean has the same argmin). The triple with the smallest ``L_MS`` wins; its
``L_EE`` is the bound ``L_EE*`` and its ``l_MC`` models ``f*_MS`` form the set
``F*``, from which a model is drawn at random to classify.

Two choices the paper leaves open, made here:

* **Common random numbers.** Split ``i`` for a given ``k`` depends only on
  ``(random_state, k, i)``: every grid point is scored on the same splits, and
  the results do not depend on ``n_jobs``, on the backend or on the grid order.
* **Ties** in ``L_MS`` go to the smaller ``k``, then to the earlier grid point
  (the order of :class:`sklearn.model_selection.ParameterGrid`).

Two phases, one result. The selection of (C, gamma, k) depends on ``L_MS``
alone, and ``L_EE`` is an output only for the row selected at each ``k``
(``bound_``, ``F*``, and the fixed-k columns through :meth:`CompleteKCV.bound_at`
and :meth:`CompleteKCV.members`). So :meth:`CompleteKCV.fit` first fits
``f_TR`` for every (grid point, k, split) (the **MS phase**), selects, and
then fits ``f*_MS`` on TR u MS only for the row selected at each ``k`` (the
**EE phase**); those fits give ``L_EE`` and are kept as the members, so no
model is fit twice. The numbers are those of the loop that refits every grid
point on TR u MS, bit for bit; ``ee_rows="all"`` runs the EE phase on every
row for a reader who wants ``L_EE`` everywhere.

For ``SVC(kernel="rbf")`` (the default estimator) the Gaussian kernel is
computed once per gamma on the whole training pool (``kernel="precomputed"``);
any other estimator is cloned and refit on the raw features. That fast path
calls libsvm through scikit-learn's private module ``sklearn.svm._libsvm``
when it is there and gives the numbers of ``SVC(kernel="precomputed")``;
otherwise it uses that public estimator (same numbers, slower): see
:func:`solver_backend`. With libsvm it copies no kernel block: each fit gets
the whole kernel with weight 0 outside the fitting set (libsvm drops those
points and reads the others' kernel values in place), and the errors come
from one matrix product per split whose signs are certified against libsvm's
own sum (:func:`pool_predict`). libsvm releases the GIL, so the tasks run in
threads unless the caller chose a joblib backend.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import DataConversionWarning
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.model_selection import ParameterGrid
from sklearn.svm import SVC
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _sk_validate_data
except ImportError:  # pragma: no cover - scikit-learn < 1.6
    _sk_validate_data = None

from ._ckcv_libsvm import (
    RBFMember,
    class_index,
    gaussian_kernels,
    generic_chunk,
    kernel_block,
    libsvm_agrees,
    libsvm_fit,
    one_blas_thread,
    pool_weight,
    precomputed_chunk,
    svc_defaults,
)
from .bounds import clopper_pearson_upper
from .validation import (
    ArgumentTypeError,
    check_binary_labels,
    check_features,
    check_float,
    check_index_array,
    check_int,
    check_label_types,
    check_n_jobs,
    check_open_unit,
    check_random_state,
)

__all__ = [
    "DEFAULT_K_VALUES",
    "CompleteKCV",
    "ThreeWaySplit",
    "fit_precomputed",
    "solver_backend",
]

#: The k values tried when none are given: small k (the paper's k* lies
#: mostly in 3--4) and the conventional 5 and 10.
DEFAULT_K_VALUES: tuple[int, ...] = (3, 4, 5, 6, 8, 10)


def _check_k_values(k_values: Any) -> list[int]:
    """The sorted distinct k values; each an integer (no float, string or bool), ``>= 3``."""
    if isinstance(k_values, (str, bytes)) or not isinstance(k_values, (Sequence, np.ndarray)):
        raise ValueError(
            f"k_values must be a sequence of integers such as [3, 5, 10], got {k_values!r}"
        )
    out = set()
    for k in k_values:
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
            raise ValueError(
                f"k_values must hold integers (numbers of folds), got {k!r} in {k_values!r}"
            )
        out.add(int(k))
    if not out:
        raise ValueError("k_values must hold at least one k")
    return sorted(out)


def _check_X(X: Any, name: str = "X") -> np.ndarray:
    """``check_features`` with scikit-learn's wording for the cases its checks look for.

    Complex input ("Complex data not supported"), 1-d input ("Reshape your
    data") and non-numeric objects (the TypeError of ``float()``) are refused
    here first; the rest (sparse, strings, NaN/inf, zero columns) by
    ``cvbook.validation.check_features``.
    """
    if X is None:
        raise ValueError(f"{name} is required, got None")
    if not sparse.issparse(X):
        arr = np.asarray(X)
        if np.iscomplexobj(arr):
            raise ValueError(f"{name} must be real: Complex data not supported")
        if arr.ndim == 1:
            raise ValueError(
                f"{name} must be 2-dimensional (n_samples, n_features), got shape {arr.shape}. "
                "Reshape your data either using X.reshape(-1, 1) if it has a single feature "
                "or X.reshape(1, -1) if it holds a single sample."
            )
        if arr.ndim == 2 and arr.shape[1] == 0:
            raise ValueError(
                f"{name} must have at least one feature: 0 feature(s) "
                f"(shape={arr.shape}) while a minimum of 1 is required."
            )
        if arr.dtype == object:
            try:
                arr.astype(np.float64)
            except TypeError as exc:
                raise TypeError(f"{name} must hold numbers: {exc}") from None
            except ValueError as exc:
                raise ValueError(f"{name} must hold numbers: {exc}") from None
    # C order: a DataFrame gives a Fortran-ordered array, whose var() (gamma="scale")
    # can differ in the last bit from that of the same numbers in C order.
    return np.ascontiguousarray(check_features(X, name))


def _check_y(y: Any) -> np.ndarray:
    """1-d binary labels, refused with scikit-learn's wording where its checks look for it.

    A column vector is flattened with scikit-learn's DataConversionWarning; a
    continuous or multi-class target is refused.
    """
    if y is None:
        raise ValueError(
            "y is required: CompleteKCV requires y to be passed, but the target y is None"
        )
    arr = np.asarray(y)
    if not np.iscomplexobj(arr) and arr.ndim == 2 and arr.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please change "
            "the shape of y to (n_samples,), for example using ravel().",
            DataConversionWarning,
            stacklevel=3,
        )
        arr = arr.ravel()
    check_label_types(arr, "y")
    if not np.iscomplexobj(arr) and arr.ndim == 1 and arr.size:
        try:
            kind = type_of_target(arr)
        except ValueError:
            kind = "unknown"
        if kind == "continuous":
            raise ValueError(
                "y must hold class labels: Unknown label type: continuous. "
                "CompleteKCV is a binary classifier."
            )
        if kind == "multiclass":
            raise ValueError(
                f"y must be binary (two classes), got {np.unique(arr).size} "
                "distinct labels: Only binary classification is supported. The "
                "type of the target is multiclass."
            )
    return check_binary_labels(arr, "y")


def _feature_checks(estimator: BaseEstimator, X: Any, reset: bool) -> None:
    """``n_features_in_`` and ``feature_names_in_`` as scikit-learn sets and checks them."""
    if _sk_validate_data is not None:
        _sk_validate_data(estimator, X, skip_check_array=True, reset=reset)
    else:  # pragma: no cover - scikit-learn < 1.6
        estimator._validate_data(X, cast_to_ndarray=False, reset=reset)


def _split_rng(entropy: int, k: int, i: int) -> np.random.Generator:
    """The generator of Monte Carlo split ``i`` at ``k``: a function of the three only."""
    return np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(k, i)))


def _three_way(
    n: int, k: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    perm = rng.permutation(n)
    m = n // k
    ms, ee, tr = perm[:m], perm[m : 2 * m], perm[2 * m :]
    return np.sort(tr), np.sort(ms), np.sort(ee)


#: Relative tolerance under which two mean bounds count as tied (the tie rule then picks
#: the first row). Means of Clopper-Pearson bounds over splits that are equal in exact
#: arithmetic can differ in their last bits, which depend on how the bound is computed
#: and summed; without a tolerance such noise, not the data, would pick among tied rows.
TIE_RTOL = 1e-9


def first_minimum(values: np.ndarray, rtol: float = TIE_RTOL) -> int:
    """Index of the first value within ``rtol`` (relative) of the minimum.

    The tie rule of the selection: among rows whose mean ``L_MS`` equal the smallest up
    to rounding, the first in row order (smallest k, then grid order) wins.

    Parameters
    ----------
    values : array of float, 1-d
        Mean bounds, in row order.
    rtol : float
        Relative tolerance for a tie.

    Returns
    -------
    int

    Examples
    --------
    >>> first_minimum(np.array([0.3, 0.2 + 1e-17, 0.2, 0.25]))
    1
    """
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or values.size == 0 or not np.all(np.isfinite(values)):
        raise ValueError("values must be a non-empty 1-d array of finite numbers")
    rtol = check_float(rtol, "rtol", minimum=0.0)
    low = values.min()
    return int(np.flatnonzero(values <= low + rtol * max(abs(low), np.finfo(float).tiny))[0])


class ThreeWaySplit:
    """Seeded Monte Carlo splitter into training, MS and EE parts.

    Each of the ``n_splits`` splits is a random permutation of the ``n``
    points: the first ``n // k`` go to model selection (MS), the next
    ``n // k`` to error estimation (EE), the rest to training (TR). Split
    ``i`` depends only on ``(random_state, k, i)``, so two splitters with the
    same seed and different ``k`` are independent, and the same seed and
    ``k`` always give the same splits.

    Parameters
    ----------
    k : int
        Number of folds, ``k >= 3``; each of MS and EE holds ``n // k`` points.
    n_splits : int, default=10
        Number of Monte Carlo splits (``l_MC`` in the paper), ``>= 1``.
    random_state : int, Generator, RandomState, SeedSequence or None, default=None
        Seed (the seed rule of cvbook). ``None`` draws fresh entropy on every
        call to :meth:`split`; a Generator or RandomState gives one draw per
        call, so its splits differ from call to call.

    Examples
    --------
    >>> import numpy as np
    >>> splitter = ThreeWaySplit(k=4, n_splits=2, random_state=0)
    >>> [(len(tr), len(ms), len(ee)) for tr, ms, ee in splitter.split(np.zeros((10, 1)))]
    [(6, 2, 2), (6, 2, 2)]
    >>> splitter.get_n_splits()
    2
    """

    def __init__(self, k: int, n_splits: int = 10, random_state: int | None = None):
        self.k = k
        self.n_splits = n_splits
        self.random_state = random_state

    def get_n_splits(self, X: Any = None, y: Any = None, groups: Any = None) -> int:
        """Number of splits, ``n_splits``."""
        return check_int(self.n_splits, "n_splits", minimum=1)

    def split(
        self, X: Any, y: Any = None, groups: Any = None
    ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Yield ``(train, ms, ee)`` index arrays, each sorted.

        Parameters
        ----------
        X : array_like of shape (n_samples, ...)
            Only its length is used.
        y, groups : ignored

        Yields
        ------
        train, ms, ee : numpy.ndarray of int
        """
        if isinstance(X, (str, bytes)) or not hasattr(X, "__len__"):
            raise ArgumentTypeError(
                f"X must be an array of points (one row each), got {type(X).__name__}"
            )
        n = len(X)
        n_splits = self.get_n_splits()
        k = check_int(self.k, "k", minimum=3)
        if k > n:
            raise ValueError(f"k must be <= n_samples = {n} (else MS and EE are empty), got {k}")
        seed = check_random_state(self.random_state, "random_state", to="seed")
        entropy = np.random.SeedSequence().entropy if seed is None else seed
        for i in range(n_splits):
            yield _three_way(n, k, _split_rng(entropy, k, i))


# --------------------------------------------------------------------------- #
# The solver of the fast path: its two public doors (the machinery is in
# cvbook._ckcv_libsvm)


def solver_backend() -> str:
    """Which solver the fast path of :class:`CompleteKCV` uses in this process.

    ``"libsvm"``: scikit-learn's private ``sklearn.svm._libsvm``, called
    directly (it skips the per-call input checks, which cost more than the
    fit of a few hundred points). It is used only if a check at first use
    finds that it gives the model of ``SVC(kernel="precomputed")``.
    ``"svc"``: the public ``SVC(kernel="precomputed")``, the fallback when the
    private module is missing or behaves differently. Both give the same
    numbers; the second is slower.

    Returns
    -------
    str
        ``"libsvm"`` or ``"svc"``.

    Examples
    --------
    >>> solver_backend() in ("libsvm", "svc")
    True
    """
    return "libsvm" if libsvm_agrees() else "svc"


def _check_kernel(K: Any) -> np.ndarray:
    """A kernel matrix for libsvm: square, real, finite, as C-contiguous float64.

    Lists, Fortran-ordered and float32 matrices are converted (as ``SVC`` does).
    """
    arr = _check_X(K, "K")
    if arr.shape[0] != arr.shape[1]:
        raise ValueError(f"K must be a square kernel matrix (n, n), got shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.float64)


def _check_svc_params(params: Any) -> list[dict]:
    """Each mapping of ``params`` merged into ``SVC``'s defaults and checked as ``SVC`` does.

    Unknown names and values that ``SVC`` refuses (``C=-1``, a negative class
    weight) raise a ``ValueError`` naming the parameter.
    """
    many = isinstance(params, (list, tuple))
    if many and not params:
        raise ValueError("params must be None, a mapping or a non-empty list of mappings")
    defaults = svc_defaults()
    out = []
    for i, q in enumerate(params if many else [params]):
        where = f"params[{i}]" if many else "params"
        if q is not None and not isinstance(q, Mapping):
            raise TypeError(f"{where} must be a mapping of SVC parameters or None, got {q!r}")
        q = dict(q or {})
        unknown = sorted(set(q) - set(defaults), key=str)
        if unknown:
            raise ValueError(
                f"{where} holds unknown SVC parameter(s) {unknown}; allowed: {sorted(defaults)}"
            )
        p = {**defaults, **q, "kernel": "precomputed"}
        try:
            SVC(**p)._validate_params()
        except (TypeError, ValueError) as err:
            raise ValueError(f"{where}: {err}") from None
        cw = p["class_weight"]
        if isinstance(cw, Mapping):
            bad = {c: w for c, w in cw.items() if not (np.isfinite(w) and w > 0)}
            if bad:
                raise ValueError(
                    f"{where}: class_weight must give every class a positive finite "
                    f"weight, got {bad}"
                )
        out.append(p)
    return out


def fit_precomputed(
    K: np.ndarray,
    y: np.ndarray,
    params: Mapping | Sequence[Mapping] | None = None,
    backend: str | None = None,
    fit_index: Any = None,
) -> Any:
    """Fit C-SVCs on a precomputed kernel, as the fast path of :class:`CompleteKCV` does.

    It is the solve that the MS phase repeats for every (grid point, k,
    split), exposed so that a benchmark can time the solver alone. Several
    parameter settings fit on one fitting set share its preparation, as the
    grid points of a split do in :class:`CompleteKCV`.

    Parameters
    ----------
    K : numpy.ndarray of shape (n, n), float64, C-contiguous
        Kernel matrix of the fitting set, or of a pool that holds it (with
        ``fit_index``).
    y : numpy.ndarray of shape (n,)
        The labels of the rows of ``K``; two classes among the fitted points.
    params : mapping, list of mappings, or None
        Parameters of ``SVC`` (``C``, ``class_weight``, ``tol``, ...); the
        kernel is ``"precomputed"`` whatever is given. A list fits one model
        per mapping.
    backend : {"libsvm", "svc"} or None
        ``None``: :func:`solver_backend`. ``"libsvm"`` raises if that solver is
        not available.
    fit_index : array_like of int, strictly increasing, or None
        The points of the pool to fit on. libsvm then reads ``K`` in place
        (weight 0 for the other points, which it drops), as :class:`CompleteKCV`
        does; the public ``SVC`` gets the block ``K[np.ix_(fit_index, fit_index)]``.
        Both give the model of that block.

    Returns
    -------
    object or list
        The fitted model (libsvm's raw arrays, or an ``SVC``); a list of them
        if ``params`` is a list.

    Raises
    ------
    ValueError
        Naming the argument: ``K`` not square, not finite or not real (a list,
        a Fortran-ordered or a float32 matrix is converted, as ``SVC`` does);
        ``y`` not one label per row of ``K``, or one class among the fitted
        points; an unknown ``SVC`` parameter in ``params`` or a value ``SVC``
        refuses (``C=-1``, a class weight that is not positive); a
        ``fit_index`` that is not strictly increasing integers in range.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.metrics.pairwise import rbf_kernel
    >>> X = np.array([[0.0], [0.1], [0.5], [1.0], [1.1]]); y = np.array([0, 0, 1, 1, 1])
    >>> K = rbf_kernel(X, gamma=1.0)
    >>> models = fit_precomputed(K, y, [{"C": 1.0}, {"C": 10.0}], fit_index=[0, 1, 3, 4])
    >>> len(models)
    2
    """
    backend = solver_backend() if backend is None else backend
    if backend not in ("svc", "libsvm") or (backend == "libsvm" and not libsvm_agrees()):
        raise ValueError(f"backend must be None, 'svc' or (if available) 'libsvm', got {backend!r}")
    K = _check_kernel(K)
    y = _check_y(y)
    if len(y) != K.shape[0]:
        raise ValueError(
            f"y must hold one label per row of K: K has shape {K.shape}, y has {len(y)} labels"
        )
    ps = _check_svc_params(params)
    many = isinstance(params, (list, tuple))
    if fit_index is not None:
        fit_index = check_index_array(fit_index, "fit_index", len(y))
        if fit_index.size < 2 or np.any(np.diff(fit_index) <= 0):
            raise ValueError(
                "fit_index must hold at least 2 strictly increasing integers in "
                f"[0, {len(y)}), got {fit_index!r}"
            )
    fitted = y if fit_index is None else y[fit_index]
    if np.unique(fitted).size != 2:
        raise ValueError(
            f"y must hold two classes among the fitted points, got "
            f"{np.unique(fitted).size}: {np.unique(fitted).tolist()}"
        )
    if backend == "svc":
        if fit_index is not None:
            K, y = kernel_block(K, fit_index, fit_index), y[fit_index]
        models = [SVC(**p).fit(K, y) for p in ps]
    elif fit_index is None:
        classes = np.unique(y)
        t = class_index(y, classes)
        models = [libsvm_fit(K, t, y, classes, p) for p in ps]
    else:
        y_fit = y[fit_index]
        classes = np.unique(y_fit)
        t, weight = class_index(y, classes), pool_weight(len(y), fit_index)
        models = [libsvm_fit(K, t, y_fit, classes, p, sample_weight=weight) for p in ps]
    return models if many else models[0]


def _is_plain_rbf_svc(estimator: Any) -> bool:
    return type(estimator) is SVC and estimator.kernel == "rbf"


class CompleteKCV(ClassifierMixin, BaseEstimator):
    """Complete K-fold cross-validation selecting (hyperparameters, k) by a bound.

    Algorithm 1 of Anguita et al. (2012): for every grid point and every
    ``k`` in ``k_values``, ``n_splits`` Monte Carlo three-way splits (see
    :class:`ThreeWaySplit`) score ``f_TR`` on MS and ``f*_MS`` (refit on
    TR u MS) on EE with one-sided Clopper--Pearson bounds at level ``delta``.
    The row with the smallest mean ``L_MS`` is selected (ties: smaller ``k``,
    then earlier grid point); its mean ``L_EE`` bounds the risk of a model
    drawn at random from its ``n_splits`` models ``F*``.

    Parameters
    ----------
    estimator : estimator, default=None
        A binary classifier. ``None`` means ``SVC(kernel="rbf")``. For a plain
        ``SVC`` with ``kernel="rbf"`` the kernel matrix is computed once per
        gamma and shared by the splits; other estimators are refit on raw features.
    param_grid : dict or list of dict, default=None
        Grid of the estimator's parameters, as for
        :class:`sklearn.model_selection.GridSearchCV`. ``None`` means
        ``{"C": [0.1, 1, 10, 100, 1000], "gamma": ["scale"]}`` for the default
        estimator and no parameters otherwise. A gamma of ``"scale"`` or
        ``"auto"`` is resolved on the whole training pool, as ``SVC`` does.
    k_values : sequence of int, default=(3, 4, 5, 6, 8, 10)
        Numbers of folds to try, each ``>= 3``. ``[5]`` gives the conventional
        procedure with k fixed.
    n_splits : int, default=10
        Monte Carlo splits per (grid point, k), ``l_MC`` in the paper.
    delta : float, default=0.05
        Confidence parameter of the Clopper--Pearson bounds, in (0, 1).
    random_state : int, Generator, RandomState, SeedSequence or None, default=None
        Seeds the splits (split ``i`` at ``k`` depends on ``(seed, k, i)``
        only) and the draws of :meth:`predict`. An int is the seed; a
        Generator, RandomState or SeedSequence gives it by one draw (so a
        Generator gives other splits on each fit); ``None`` fresh entropy.
    n_jobs : int or None, default=None
        joblib's ``n_jobs`` over (gamma, k, split) tasks, in threads on the
        fast path unless a backend is set with :func:`joblib.parallel_config`.
        BLAS runs one thread during the fit. The results do not depend on
        ``n_jobs``, nor on the joblib backend.
    ee_rows : {"selected", "all"}, default="selected"
        Rows that get an EE phase (``f*_MS`` refit on TR u MS, scored on EE).
        ``"selected"``: the row selected at each ``k``, which is all that
        ``bound_``, ``estimators_``, :meth:`bound_at` and :meth:`members` use;
        the selection itself depends on ``L_MS`` only, so the outputs are
        those of Algorithm 1 as printed. ``"all"``: every row, for a reader
        who wants ``L_EE`` of rows that were not selected (about twice the
        work).

    Attributes
    ----------
    cv_results_ : dict of numpy.ndarray
        One row per (k, grid point), ``k`` ascending, then grid order. Keys:
        ``params``, ``param_<name>``, ``k``, ``n_ms``, ``n_ee``,
        ``split<i>_ms_errors``, ``split<i>_ee_errors``, ``split<i>_L_MS``,
        ``split<i>_L_EE``, ``mean_L_MS``, ``mean_L_EE``, ``std_L_MS``,
        ``std_L_EE``, ``mean_ms_error``, ``mean_ee_error``, ``rank_L_MS``,
        ``has_ee``. The MS columns are filled for every row. The EE columns
        (``split<i>_ee_errors``, ``split<i>_L_EE``, ``mean_L_EE``, ``std_L_EE``,
        ``mean_ee_error``) are float and hold ``NaN`` in the rows without an
        EE phase (``has_ee`` False): with ``ee_rows="selected"``, every row
        but the one selected at each ``k``.
    best_index_ : int
        Selected row of ``cv_results_``.
    best_params_ : dict
        Selected grid point (gamma resolved to a number on the fast path).
    k_ : int
        Selected number of folds ``k*``.
    best_score_ : float
        ``L_MS*``, the smallest mean MS bound.
    bound_ : float
        ``L_EE*``, the mean of the ``n_splits`` per-split bounds ``L_EE^(i)``
        of the selected row. Each ``L_EE^(i)`` holds for its own model with
        probability at least ``1 - delta`` over its EE part, for a row fixed in
        advance. If all of them hold, the risk of a member of ``F*`` drawn at
        random (the mean of the members' risks) is at most ``L_EE*``; by the
        union bound that happens with probability at least
        ``1 - n_splits * delta`` for a row fixed in advance, not ``1 - delta``
        (averaging does not restore ``1 - delta``). For the row the search
        selects, whose choice depended on the EE labels through the other
        splits, the union runs over every row searched: at least
        ``1 - n_rows * n_splits * delta``, so per-split bounds at
        ``delta / (n_rows * n_splits)`` give ``1 - delta`` (chapter 5).
    estimators_ : list of estimators
        ``F*``, the ``n_splits`` models ``f*_MS`` of the selected row: the
        fits of its EE phase.
    classes_ : numpy.ndarray
        The two labels.
    n_features_in_ : int
        Number of features seen in :meth:`fit`.
    feature_names_in_ : numpy.ndarray of str
        Column names, when ``X`` in :meth:`fit` had string column names (a
        pandas DataFrame).

    Notes
    -----
    Only binary problems: the bounds count the errors of a two-class rule
    (declared in the estimator tags). Sparse ``X`` is refused (the kernel is
    dense). :meth:`predict` draws a member of ``F*`` at random on each call,
    as the paper does, so two calls may differ; ``random_state`` makes the
    sequence of calls reproducible.

    The three-way splits are drawn at random, not stratified, as in Algorithm 1.
    On a small or unbalanced sample, a training part (``n - 2 (n // k)`` points,
    smallest at ``k = 3``) may hold one class; such a ``k`` is skipped with a
    ``UserWarning`` naming it, and if no ``k`` is left :meth:`fit` raises a
    ``ValueError`` naming ``k_values`` and the size of the smaller class. This is
    why scikit-learn's ``check_estimator`` passes with the default ``k_values``
    but four of its checks (``check_estimators_overwrite_params``,
    ``check_estimators_fit_returns_self``, ``check_readonly_memmap_input``,
    ``check_classifier_data_not_an_array``, whose 12-21 points leave a one-class
    training part at ``k = 3``) end in that named error when ``k_values=[3]``.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(120, 2)); y = np.where(X[:, 0] + 0.3 * rng.normal(size=120) > 0, 1, -1)
    >>> model = CompleteKCV(param_grid={"C": [1.0, 10.0], "gamma": [0.5]},
    ...                     k_values=[3, 5], n_splits=4, random_state=0).fit(X, y)
    >>> model.k_ in (3, 5), len(model.estimators_)
    (True, 4)
    >>> 0 < model.bound_ < 1
    True
    >>> model.member_error(X, y) <= 0.2
    True
    """

    def __init__(
        self,
        estimator: Any = None,
        param_grid: Mapping | Sequence[Mapping] | None = None,
        k_values: Sequence[int] = DEFAULT_K_VALUES,
        n_splits: int = 10,
        delta: float = 0.05,
        random_state: int | None = None,
        n_jobs: int | None = None,
        ee_rows: str = "selected",
    ):
        self.estimator = estimator
        self.param_grid = param_grid
        self.k_values = k_values
        self.n_splits = n_splits
        self.delta = delta
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.ee_rows = ee_rows

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only: the bounds count 0-1 errors
        tags.input_tags.sparse = False
        tags.non_deterministic = True  # predict draws a member of F* at random
        return tags

    def _more_tags(self) -> dict:  # scikit-learn < 1.6
        return {"binary_only": True, "non_deterministic": True}

    # ------------------------------------------------------------------ checks
    def _validate(self, X, y) -> tuple[np.ndarray, np.ndarray, list[int]]:
        check_int(self.n_splits, "n_splits", minimum=1)
        check_open_unit(self.delta, "delta", scalar=True)
        if self.ee_rows not in ("selected", "all"):
            raise ValueError(f"ee_rows must be 'selected' or 'all', got {self.ee_rows!r}")
        check_n_jobs(self.n_jobs)
        k_values = _check_k_values(self.k_values)
        X_arr = _check_X(X, "X")
        y = _check_y(y)
        if len(y) != len(X_arr):
            raise ValueError(f"X and y must have the same length, got {len(X_arr)} and {len(y)}")
        _feature_checks(self, X, reset=True)
        if np.unique(y).size != 2:
            raise ValueError(
                f"y must hold two classes, got {np.unique(y).size} class: "
                f"{np.unique(y).tolist()}; CompleteKCV is for binary problems"
            )
        n = len(y)
        for k in k_values:
            if k < 3 or k > n:
                raise ValueError(
                    f"k_values must lie in [3, n_samples = {n}]: k = {k} leaves an empty "
                    f"{'training part' if k < 3 else 'MS or EE part'}"
                )
        return X_arr, y, k_values

    def _check_predict_X(self, X) -> np.ndarray:
        check_is_fitted(self, "estimators_")
        arr = _check_X(X, "X")
        _feature_checks(self, X, reset=False)
        return arr

    def _grid(self, X: np.ndarray) -> tuple[BaseEstimator, list[dict], bool]:
        estimator = SVC(kernel="rbf") if self.estimator is None else self.estimator
        if self.param_grid is None:
            grid = (
                {"C": [0.1, 1.0, 10.0, 100.0, 1000.0], "gamma": ["scale"]}
                if _is_plain_rbf_svc(estimator)
                else {}
            )
        else:
            grid = self.param_grid
        for method in ("fit", "predict", "get_params"):
            if isinstance(estimator, type) or not callable(getattr(estimator, method, None)):
                raise ArgumentTypeError(
                    "estimator must be a scikit-learn classifier instance (with fit, predict "
                    f"and get_params), got {estimator!r}"
                )
        try:
            points = [dict(p) for p in ParameterGrid(grid)]
        except (TypeError, ValueError) as err:
            raise type(err)(f"param_grid: {err}") from None
        for p in points:
            c = p.get("C", 1.0)
            if isinstance(c, (bool, np.bool_)) or not isinstance(c, numbers.Real) or not c > 0:
                raise ValueError(f"param_grid: C must be a positive number, got {c!r}")
        fast = _is_plain_rbf_svc(estimator) and all(p.get("kernel", "rbf") == "rbf" for p in points)
        if fast:
            # the fast path fits libsvm directly: refuse the class weights SVC refuses
            for p in points:
                where = "param_grid" if "class_weight" in p else "estimator"
                cw = p.get("class_weight", estimator.class_weight)
                if isinstance(cw, Mapping):
                    bad = {
                        c: w
                        for c, w in cw.items()
                        if isinstance(w, (bool, np.bool_))
                        or not isinstance(w, numbers.Real)
                        or not (np.isfinite(w) and w > 0)
                    }
                    if bad:
                        raise ValueError(
                            f"{where}: class_weight must give every class a positive finite "
                            f"weight (SVC fails on the others), got {bad}"
                        )
            default_gamma = estimator.gamma
            for p in points:
                p.pop("kernel", None)
                p["gamma"] = self._resolve_gamma(p.get("gamma", default_gamma), X)
        return estimator, points, fast

    @staticmethod
    def _resolve_gamma(gamma: Any, X: np.ndarray) -> float:
        if isinstance(gamma, str):
            if gamma == "scale":
                var = X.var()
                return float(1.0 / (X.shape[1] * var)) if var != 0 else 1.0
            if gamma == "auto":
                return 1.0 / X.shape[1]
            raise ValueError(f"gamma must be a positive number, 'scale' or 'auto', got {gamma!r}")
        if (
            isinstance(gamma, (bool, np.bool_))
            or not isinstance(gamma, numbers.Real)
            or not np.isfinite(gamma)
            or gamma <= 0
        ):
            raise ValueError(f"gamma must be a positive number, 'scale' or 'auto', got {gamma!r}")
        return float(gamma)

    def _splits(self, n: int, y: np.ndarray, k: int) -> list[tuple[np.ndarray, ...]] | str:
        """The ``n_splits`` three-way splits at ``k``, or why ``k`` cannot be run.

        The splits are not stratified (Algorithm 1 draws them at random), so a
        training part of ``n - 2 n // k`` points may hold one class; that ``k``
        is then skipped. A larger ``k`` leaves a larger training part.
        """
        splits = [_three_way(n, k, _split_rng(self._entropy, k, i)) for i in range(self.n_splits)]
        for i, (tr, _, _) in enumerate(splits):
            if np.unique(y[tr]).size < 2:
                return (
                    f"k = {k}: the training part of Monte Carlo split {i} holds one class "
                    f"only ({len(tr)} of {n} points)"
                )
        return splits

    def _usable_splits(self, n: int, y: np.ndarray, k_values: list[int]) -> dict:
        """Splits for every k whose training parts all hold both classes.

        A ``k`` whose split leaves one class in its training part is skipped with
        a ``UserWarning`` naming it; if no ``k`` is left, a ``ValueError`` says
        how large the smaller class is and what to try.
        """
        out, skipped = {}, []
        for k in k_values:
            got = self._splits(n, y, k)
            if isinstance(got, str):
                skipped.append(got)
            else:
                out[k] = got
        if not out:
            labels, counts = np.unique(y, return_counts=True)
            small = int(np.argmin(counts))
            raise ValueError(
                f"k_values: no k in {k_values} can be run: {'; '.join(skipped)}. The "
                f"three-way splits are not stratified, and class {labels.tolist()[small]!r} has "
                f"{counts[small]} of {n} points; the training part holds n - 2 * (n // k) "
                f"points, so a larger k (at most n = {n}) keeps more of them. Try larger "
                "k_values or a sample with more points of each class"
            )
        if skipped:
            warnings.warn(
                f"k_values: skipped {', '.join(f'k = {k}' for k in k_values if k not in out)} "
                f"({'; '.join(skipped)}); a larger k leaves a larger training part",
                UserWarning,
                stacklevel=4,
            )
        return out

    # --------------------------------------------------------------------- fit
    def _run_phase(self, phase: str, rows_by_pair: dict, ctx: dict) -> dict:
        """Errors (and kept models) of one phase.

        ``rows_by_pair`` maps ``(group, k)`` to the grid points to score at that
        k, each as ``(point index, keep)``. Returns ``{(k, point, split): (errors,
        model or None)}``. One joblib task per (group, k, chunk of splits); the
        largest are dispatched first, and the outputs are put back by key, so
        neither the order nor the chunking changes a number.
        """
        n, n_splits, splits = ctx["n"], self.n_splits, ctx["splits"]
        pairs = [(g, k) for (g, k), pts in rows_by_pair.items() if pts]
        if not pairs:
            return {}
        # Tasks of a few milliseconds cost more to dispatch than to run: chunk the
        # splits to give about 8 tasks per worker.
        chunk = max(1, -(-n_splits * len(pairs) // (8 * effective_n_jobs(self.n_jobs))))
        chunks = [list(range(a, min(a + chunk, n_splits))) for a in range(0, n_splits, chunk)]
        tasks = []
        for g, k in pairs:
            pts = rows_by_pair[g, k]
            keep = [kept for _, kept in pts]
            for idx in chunks:
                sp = [splits[k][i] for i in idx]
                if ctx["fast"]:
                    call = delayed(precomputed_chunk)(
                        ctx["kernels"][g],
                        ctx["y"],
                        ctx["base_params"],
                        [ctx["sub_points"][j] for j, _ in pts],
                        sp,
                        phase,
                        keep,
                        ctx["backend"],
                    )
                else:
                    call = delayed(generic_chunk)(
                        ctx["X"],
                        ctx["y"],
                        ctx["base"],
                        [ctx["points"][j] for j, _ in pts],
                        sp,
                        phase,
                        keep,
                    )
                m = n // k
                size = (n - 2 * m) ** 2 if phase == "ms" else (n - m) ** 2
                tasks.append(((k, [j for j, _ in pts], idx), size * len(idx) * len(pts), call))
        order = sorted(range(len(tasks)), key=lambda t: -tasks[t][1])
        results: dict = {}
        # batch_size=1: the tasks are already chunked; joblib's automatic batching would
        # group the short ones and undo the largest-first order. libsvm and the matrix
        # products release the GIL, so the fast path prefers threads (no copies, no
        # pickling); a backend chosen by the caller (dask, loky) still wins.
        threads = ctx["fast"] and ctx["backend"] == "libsvm"
        outputs = Parallel(n_jobs=self.n_jobs, batch_size=1, prefer="threads" if threads else None)(
            tasks[t][2] for t in order
        )
        for t, out in zip(order, outputs, strict=True):
            k, point_ids, idx = tasks[t][0]
            for i, per_split in zip(idx, out, strict=True):
                for j, res in zip(point_ids, per_split, strict=True):
                    results[k, j, i] = res
        return results

    def fit(self, X, y) -> CompleteKCV:
        """Run Algorithm 1 on ``(X, y)`` in two phases and keep ``F*``.

        MS phase: ``f_TR`` for every (grid point, k, split), giving ``L_MS`` and
        the selection. EE phase: ``f*_MS`` on TR u MS for the row selected at
        each ``k`` (every row if ``ee_rows="all"``), giving ``L_EE``; the fits
        of the selected rows are kept as their members.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Real and finite; a pandas DataFrame sets ``feature_names_in_``.
        y : array_like of shape (n_samples,), two classes

        Returns
        -------
        self
        """
        with one_blas_thread():  # parallel work is n_jobs' business, not BLAS's
            return self._fit(X, y)

    def _fit(self, X, y) -> CompleteKCV:
        """Algorithm 1 in its steps: checks, splits, MS phase, EE phase, results."""
        X, y, k_values = self._validate(X, y)
        seed = check_random_state(self.random_state, "random_state", to="seed")
        self._entropy = np.random.SeedSequence().entropy if seed is None else seed
        delta = float(check_open_unit(self.delta, "delta", scalar=True))
        estimator, points, fast = self._grid(X)
        splits = self._usable_splits(len(y), y, k_values)
        ctx = self._context(X, y, estimator, points, fast, splits)
        # MS phase: f_TR for every (grid point, k, split), and the selection at each k.
        ms_err, L_ms, selected = self._ms_phase(ctx, delta)
        # EE phase: f*_MS on TR u MS for the selected rows (or all), keeping the selected.
        ee_err, L_ee = self._ee_phase(ctx, selected, delta)
        self.cv_results_ = self._results(ctx, ms_err, L_ms, ee_err, L_ee)
        self._set_fitted(ctx)
        return self

    def _context(self, X, y, estimator, points, fast, splits) -> dict[str, Any]:
        """What the two phases share: data, splits, grid, rows, and the fast path's kernels.

        The rows of ``cv_results_`` are (k, grid point), k-major. On the fast path the
        grid points are grouped by gamma (one Gaussian kernel per group), and the SVC
        parameters are checked here, once per distinct value, since the tasks skip
        scikit-learn's checks.
        """
        n, k_values = len(y), list(splits)
        ks = np.repeat(np.array(k_values), len(points))
        ctx: dict[str, Any] = {
            "n": n,
            "splits": splits,
            "fast": fast,
            "X": X,
            "y": y,
            "points": points,
            "k_values": k_values,
            "ks": ks,
            "m": n // ks,
        }
        if fast:
            base = clone(estimator).set_params(kernel="precomputed")
            base_params = base.get_params()
            # Validate here (the tasks skip scikit-learn's checks): each parameter has
            # its own constraints, so each distinct value of each key once.
            seen: set = set()
            for p in points:
                for key, value in p.items():
                    if key != "gamma" and (key, repr(value)) not in seen:
                        seen.add((key, repr(value)))
                        SVC(**{**base_params, key: value, "gamma": "scale"})._validate_params()
            SVC(**{**base_params, "gamma": "scale"})._validate_params()
            gammas = sorted({p["gamma"] for p in points}, key=[p["gamma"] for p in points].index)
            ctx.update(
                base=base,
                group_of=[gammas.index(p["gamma"]) for p in points],
                base_params=base_params,
                backend=solver_backend(),
                kernels=gaussian_kernels(X, gammas),
                sub_points=[{key: v for key, v in p.items() if key != "gamma"} for p in points],
            )
        else:
            ctx.update(base=clone(estimator), group_of=[0] * len(points))
        return ctx

    def _rows_by_pair(self, ctx: dict, selected: dict[int, int] | None) -> dict:
        """Points to score per (group, k): all of them (keep none) or the selection."""
        pairs: dict = {}
        for k in ctx["k_values"]:
            for j in range(len(ctx["points"])):
                keep = selected is not None and selected[k] == j
                if selected is None or keep or self.ee_rows == "all":
                    pairs.setdefault((ctx["group_of"][j], k), []).append((j, keep))
        return pairs

    def _ms_phase(self, ctx: dict, delta: float) -> tuple[np.ndarray, np.ndarray, dict]:
        """MS errors and bounds of every row, and the grid point selected at each k."""
        k_values, n_points = ctx["k_values"], len(ctx["points"])
        ms_out = self._run_phase("ms", self._rows_by_pair(ctx, None), ctx)
        ms_err = np.array(
            [
                [ms_out[k, j, i][0] for i in range(self.n_splits)]
                for k in k_values
                for j in range(n_points)
            ],
            dtype=np.int64,
        )
        L_ms = clopper_pearson_upper(ms_err, ctx["m"][:, None], delta)
        mean_L_ms = L_ms.mean(axis=1)
        # Selection at each k: first minimum of the mean L_MS (rows: grid order).
        selected = {
            k: first_minimum(mean_L_ms[a * n_points : (a + 1) * n_points])
            for a, k in enumerate(k_values)
        }
        return ms_err, L_ms, selected

    def _ee_phase(self, ctx: dict, selected: dict, delta: float) -> tuple[np.ndarray, np.ndarray]:
        """EE errors and bounds (NaN on the rows not run), and the members at each k."""
        k_values, n_points, m = ctx["k_values"], len(ctx["points"]), ctx["m"]
        ee_out = self._run_phase("ee", self._rows_by_pair(ctx, selected), ctx)
        n_rows = len(k_values) * n_points
        ee_err = np.full((n_rows, self.n_splits), np.nan)
        for (k, j, i), (count, _) in ee_out.items():
            ee_err[k_values.index(k) * n_points + j, i] = count
        has_ee = ~np.isnan(ee_err[:, 0])
        L_ee = np.full((n_rows, self.n_splits), np.nan)
        L_ee[has_ee] = clopper_pearson_upper(
            ee_err[has_ee].astype(np.int64), m[has_ee, None], delta
        )
        self._members_at = {}
        for k in k_values:
            fitted = [ee_out[k, selected[k], i][1] for i in range(self.n_splits)]
            if ctx["fast"]:
                gamma = ctx["points"][selected[k]]["gamma"]
                fitted = [
                    RBFMember(svc, gamma, ctx["X"], np.sort(np.concatenate([tr, ms])))
                    for svc, (tr, ms, _) in zip(fitted, ctx["splits"][k], strict=True)
                ]
            self._members_at[k] = fitted
        return ee_err, L_ee

    def _results(self, ctx: dict, ms_err, L_ms, ee_err, L_ee) -> dict[str, Any]:
        """``cv_results_``: one row per (k, grid point), k-major."""
        points, k_values, m = ctx["points"], ctx["k_values"], ctx["m"]
        n_rows = len(m)
        res: dict[str, Any] = {"params": [dict(p) for _ in k_values for p in points]}
        for name in sorted({key for p in points for key in p}):
            res[f"param_{name}"] = np.array([p.get(name) for p in res["params"]], dtype=object)
        res["k"] = ctx["ks"]
        res["n_ms"] = m
        res["n_ee"] = m.copy()
        for i in range(self.n_splits):
            res[f"split{i}_ms_errors"] = ms_err[:, i]
            res[f"split{i}_ee_errors"] = ee_err[:, i]
            res[f"split{i}_L_MS"] = L_ms[:, i]
            res[f"split{i}_L_EE"] = L_ee[:, i]
        res["mean_L_MS"] = L_ms.mean(axis=1)
        res["std_L_MS"] = L_ms.std(axis=1)
        res["mean_L_EE"] = L_ee.mean(axis=1)
        res["std_L_EE"] = L_ee.std(axis=1)
        res["mean_ms_error"] = (ms_err / m[:, None]).mean(axis=1)
        res["mean_ee_error"] = (ee_err / m[:, None]).mean(axis=1)
        order = np.argsort(res["mean_L_MS"], kind="stable")
        rank = np.empty(n_rows, dtype=np.int64)
        rank[order] = np.arange(1, n_rows + 1)
        res["rank_L_MS"] = rank
        res["has_ee"] = ~np.isnan(ee_err[:, 0])
        return res

    def _set_fitted(self, ctx: dict) -> None:
        """The fitted attributes, read from ``cv_results_`` and the members."""
        res = self.cv_results_
        self._X_pool, self._y_pool = ctx["X"], ctx["y"]
        self._fast, self._base, self._points = ctx["fast"], ctx["base"], ctx["points"]
        self.classes_ = np.unique(ctx["y"])
        self.best_index_ = self.selected_index()
        self.best_params_ = dict(res["params"][self.best_index_])
        self.k_ = int(res["k"][self.best_index_])
        self.best_score_ = float(res["mean_L_MS"][self.best_index_])
        self.bound_ = float(res["mean_L_EE"][self.best_index_])
        self.estimators_ = self._members_at[self.k_]
        self._predict_rng = np.random.default_rng(
            np.random.SeedSequence(self._entropy, spawn_key=(0,))
        )

    # ------------------------------------------------------------- selection
    def _check_k(self, k: Any) -> int | None:
        fitted = sorted({int(v) for v in self.cv_results_["k"]})
        if k is None:
            return None
        if (
            isinstance(k, (bool, np.bool_))
            or not isinstance(k, numbers.Integral)
            or int(k) not in fitted
        ):
            raise ValueError(f"k must be None or one of the fitted k_values {fitted}, got {k!r}")
        return int(k)

    def selected_index(self, k: int | None = None) -> int:
        """Row of ``cv_results_`` with the smallest mean ``L_MS``.

        Parameters
        ----------
        k : int or None
            Restrict the choice to rows with this ``k`` (the conventional
            procedure with k fixed); ``None`` selects over all rows.

        Returns
        -------
        int
        """
        check_is_fitted(self, "cv_results_")
        k = self._check_k(k)
        res = self.cv_results_
        rows = np.arange(len(res["k"])) if k is None else np.flatnonzero(res["k"] == k)
        # First minimum: rows are ordered by k, then grid order (the tie rule).
        return int(rows[first_minimum(res["mean_L_MS"][rows])])

    def bound_at(self, k: int | None = None) -> float:
        """``L_EE`` of the row selected among those with ``k`` (``None``: ``bound_``).

        Parameters
        ----------
        k : int or None
            As in :meth:`selected_index`.

        Returns
        -------
        float
        """
        check_is_fitted(self, "cv_results_")
        return float(self.cv_results_["mean_L_EE"][self.selected_index(k)])

    def members(self, k: int | None = None) -> list:
        """The models ``f*_MS`` of the row selected among those with ``k``.

        ``k=None`` returns ``estimators_`` (F*). Another ``k`` returns the
        ``n_splits`` models of its selected row, fit in the EE phase on the
        same splits as in the search, so the k = 5 and k = 10 columns of Table 1
        come from one fit.

        Parameters
        ----------
        k : int or None
            As in :meth:`selected_index`.

        Returns
        -------
        list of fitted estimators
        """
        check_is_fitted(self, "estimators_")
        k = self._check_k(k)
        return self.estimators_ if k is None else self._members_at[k]

    def member_error(self, X, y, k: int | None = None) -> float:
        """Mean test error of the members of F* (or of the selected row at ``k``).

        This is what Table 1 of the paper reports as the error of F*: the
        expected error of a member drawn at random.

        Parameters
        ----------
        X : array_like of shape (n_test, n_features)
        y : array_like of shape (n_test,)
        k : int or None
            As in :meth:`members`.

        Returns
        -------
        float
        """
        members = self.members(k)
        X = self._check_predict_X(X)
        if y is None:
            raise ValueError("y is required to measure an error, got None")
        y = np.asarray(y)
        if y.ndim != 1:
            raise ValueError(f"y must be one-dimensional, got shape {y.shape}")
        if len(X) != len(y):
            raise ValueError(f"X and y must have the same length, got {len(X)} and {len(y)}")
        if self._fast:
            K = rbf_kernel(X, self._X_pool, gamma=members[0].gamma)
            errors = [np.mean(m.predict_from_pool_kernel(K) != y) for m in members]
        else:
            errors = [np.mean(m.predict(X) != y) for m in members]
        return float(np.mean(errors))

    # -------------------------------------------------------------- predict
    def predict(self, X) -> np.ndarray:
        """Labels from one member of F*, drawn at random on each call.

        The draws follow a generator seeded from ``random_state`` at ``fit``,
        so a sequence of calls is reproducible. The paper draws a model for
        every new pattern: call ``predict`` once per pattern to do the same.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)

        Returns
        -------
        numpy.ndarray of shape (n_samples,)
        """
        X = self._check_predict_X(X)
        j = int(self._predict_rng.integers(len(self.estimators_)))
        return self.estimators_[j].predict(X)
