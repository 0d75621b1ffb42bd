"""Splitters, estimators and messages under hostile input (issue 35, items 4, 6 and 7).

* Sparse input: ``BlockedKFold.split`` and ``BootstrapSplit.split`` read ``X.shape[0]``,
  as ``KFold`` does, and give the folds of the dense array.
* ``groups`` given to a splitter that ignores it warns, as scikit-learn's do.
* Messages point the right way: a rare class missing from a bootstrap sample points to
  ``stratify=True``; ``stratify=True`` on a continuous target names the target, not
  ``n_bootstraps``; ``no_information_rate`` names ``y``; an ``{eval}`` expression slower
  than the timeout names the expression and the timeout.
* The older probes: a Wald hold-out interval from one test point is refused; a negative
  ``class_weight`` is refused on CompleteKCV's fast path as ``SVC`` refuses it;
  ``intraclass_correlation`` does not merge the groups ``1`` and ``"1"``; ``n_fresh`` too
  small to hold both classes is refused by name.
"""

from __future__ import annotations

import asyncio
import queue
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import KFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from cvbook.bootstrap import BootstrapSplit, bootstrap_estimates, no_information_rate
from cvbook.ckcv import CompleteKCV
from cvbook.datasets import TwoGaussians
from cvbook.dependence import BlockedKFold, intraclass_correlation
from cvbook.intervals import holdout_interval
from cvbook.stored_values import _store_cell

pd = pytest.importorskip("pandas")  # DataFrame inputs; not in the minimum-versions env
X = np.random.default_rng(0).normal(size=(30, 3))


@pytest.mark.parametrize("kind", [sp.csr_matrix, sp.csc_matrix, sp.coo_matrix, pd.DataFrame])
def test_blocked_kfold_takes_sparse_and_frames_as_kfold_does(kind):
    want = [(tr.tolist(), te.tolist()) for tr, te in BlockedKFold(4, gap=1).split(X)]
    got = [(tr.tolist(), te.tolist()) for tr, te in BlockedKFold(4, gap=1).split(kind(X))]
    assert got == want
    assert len(list(KFold(4).split(kind(X)))) == 4  # what scikit-learn accepts


@pytest.mark.parametrize("kind", [sp.csr_matrix, sp.csc_matrix, pd.DataFrame, list])
def test_bootstrap_split_takes_sparse_and_frames(kind):
    Xk = kind(X) if kind is not list else X.tolist()
    want = [(a.tolist(), b.tolist()) for a, b in BootstrapSplit(3, random_state=0).split(X)]
    got = [(a.tolist(), b.tolist()) for a, b in BootstrapSplit(3, random_state=0).split(Xk)]
    assert got == want


@pytest.mark.parametrize("splitter", [BlockedKFold(3), BootstrapSplit(3, random_state=0)])
def test_groups_given_to_a_splitter_that_ignores_them_warns(splitter):
    with pytest.warns(UserWarning, match="groups parameter is ignored"):
        list(splitter.split(X, groups=np.arange(30) % 5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        list(splitter.split(X))  # no groups: no warning


def test_a_rare_class_missing_from_a_sample_points_to_stratify():
    y = np.r_[np.ones(29, dtype=int), 0]
    with pytest.raises(ValueError, match="stratify=True") as err:
        bootstrap_estimates(LogisticRegression(), X, y, n_bootstraps=30, random_state=0)
    assert "holds 1 of the 2 classes" in str(err.value)
    est = bootstrap_estimates(LogisticRegression(), X, y, n_bootstraps=30, random_state=0,
                              stratify=True)  # fmt: skip
    assert 0 <= est.err1 <= 1


def test_stratify_on_a_continuous_target_names_the_target():
    y = np.random.default_rng(1).normal(size=30)
    with pytest.raises(ValueError, match="continuous target") as err:
        list(BootstrapSplit(5, stratify=True).split(X, y))
    assert "n_bootstraps" not in str(err.value)
    with pytest.raises(ValueError, match="loss='squared'") as err:
        bootstrap_estimates(Ridge(), X, y, loss="squared", n_bootstraps=5, stratify=True)
    assert "n_bootstraps" not in str(err.value)


@pytest.mark.parametrize(
    ("y", "y_pred", "fragment"),
    [
        ([0, 1], [0], "y has 2, y_pred has 1"),
        ("ab", [0, 1], "y must"),
        ([0.5, 1.5], [0, 1], "y must hold class labels"),
        ([0, 1], [0.2, 0.7], "y_pred"),
    ],
)
def test_no_information_rate_names_its_own_arguments(y, y_pred, fragment):
    with pytest.raises(ValueError) as err:
        no_information_rate(y, y_pred)
    assert fragment in str(err.value) and "y_true" not in str(err.value)


def test_a_wald_holdout_interval_from_one_test_point_is_refused():
    Xg, yg = TwoGaussians().sample(40, random_state=0)
    with pytest.raises(ValueError, match="test_size must give at least 2 test points"):
        holdout_interval(KNeighborsClassifier(1), Xg, yg, test_size=1, method="wald")
    r = holdout_interval(KNeighborsClassifier(1), Xg, yg, test_size=2, method="wald")
    assert np.isfinite([r.lower, r.upper]).all()
    cp = holdout_interval(KNeighborsClassifier(1), Xg, yg, test_size=1)  # exact: fine
    assert 0 <= cp.lower <= cp.upper <= 1


@pytest.mark.parametrize("weight", [-1.0, 0.0, np.nan, np.inf, True, "1"])
@pytest.mark.parametrize("where", ["estimator", "param_grid"])
def test_complete_kcv_fast_path_refuses_the_class_weights_svc_refuses(weight, where):
    Xg, yg = TwoGaussians().sample(40, random_state=0)
    cw = {-1: weight, 1: 1.0}
    if where == "estimator":
        search = CompleteKCV(SVC(class_weight=cw), {"C": [1.0]}, k_values=[3], n_splits=2)
    else:
        search = CompleteKCV(SVC(), {"C": [1.0], "class_weight": [cw]}, k_values=[3], n_splits=2)
    with pytest.raises(ValueError, match=f"{where}: class_weight must give every class"):
        search.fit(Xg, yg)


def test_complete_kcv_fast_path_keeps_positive_class_weights():
    Xg, yg = TwoGaussians().sample(40, random_state=0)
    search = CompleteKCV(SVC(class_weight={-1: 2.0, 1: 1.0}), {"C": [1.0]}, k_values=[3],
                         n_splits=2, random_state=0)  # fmt: skip
    assert search.fit(Xg, yg).predict(Xg[:3]).shape == (3,)


@pytest.mark.parametrize(
    "groups",
    [
        [1, "1", 2, 2, 3, 3],
        np.array([1, "1", 2, 2, 3, 3], dtype=object),
        pd.Series([1, "1", 2, 2, 3, 3]),
    ],
)
def test_intraclass_correlation_does_not_merge_1_and_the_string_1(groups):
    values = [1.0, 1.2, 3.0, 3.1, 5.0, 5.3]
    with pytest.raises(TypeError, match="groups must hold labels of one kind"):
        intraclass_correlation(values, groups)
    assert intraclass_correlation(values, ["a", "a", "b", "b", "c", "c"]) == pytest.approx(
        intraclass_correlation(values, [0, 0, 1, 1, 2, 2])
    )


class _SilentKernel:
    """A kernel client that never answers (an expression slower than any timeout)."""

    def execute(self, *args, **kwargs):
        return "msg-1"

    def get_shell_msg(self, timeout=None):
        raise queue.Empty


def test_an_eval_expression_slower_than_the_timeout_is_named():
    cell = {"cell_type": "markdown", "source": "x {eval}`N.slow` y", "metadata": {}}

    class Cell(dict):
        metadata = cell["metadata"]

    with pytest.raises(TimeoutError, match=r"cell 7: .*'N\.slow'.*timeout=2\.5 s"):
        asyncio.run(_store_cell(_SilentKernel(), Cell(cell), 7, 2.5))


def test_n_fresh_too_small_for_both_classes_is_refused_by_name():
    from cvbook.studies import interval_coverage as intervals

    with pytest.raises(ValueError, match="n_fresh must be >= 100"):
        intervals.interval_trial(np.random.default_rng(0), "ringnorm", "lda", [30], n_fresh=0)
    with pytest.raises(ValueError, match="n_fresh must be >= 100"):
        intervals.run_intervals("ringnorm", "lda", [30], 2, n_fresh=1)


@pytest.mark.parametrize("call", ["estimates", "replicates"])
def test_an_estimator_without_predict_is_named_as_such(call):
    from sklearn.preprocessing import StandardScaler

    from cvbook.bootstrap import bootstrap_replicate_errors

    y = np.r_[np.ones(15, dtype=int), -np.ones(15, dtype=int)]
    with pytest.raises(TypeError, match=r"with fit and predict.*StandardScaler"):
        if call == "estimates":
            bootstrap_estimates(StandardScaler(), X, y, n_bootstraps=3, random_state=0)
        else:
            bootstrap_replicate_errors(StandardScaler(), X, y, BootstrapSplit(3).split(X))
