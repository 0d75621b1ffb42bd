"""Tests of cvbook.holdout (chapter 2)."""

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import ShuffleSplit, train_test_split
from sklearn.svm import SVC

from cvbook.datasets import TwoGaussians
from cvbook.holdout import (
    clone_estimator,
    holdout_risk,
    holdout_risks,
    holdout_select,
    holdout_split,
)


@pytest.fixture
def data():
    return TwoGaussians(dim=3).sample(120, random_state=0)


def test_split_sizes_and_disjoint(data):
    X, y = data
    X_tr, X_va, y_tr, y_va = holdout_split(X, y, test_size=0.3, random_state=1)
    assert (len(y_tr), len(y_va)) == (84, 36)
    rows = {tuple(r) for r in X_tr} | {tuple(r) for r in X_va}
    assert len(rows) == 120


def test_split_equals_train_test_split(data):
    X, y = data
    ours = holdout_split(X, y, test_size=0.3, random_state=5)
    theirs = train_test_split(X, y, test_size=0.3, random_state=5)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


def test_stratified_split_keeps_proportions():
    y = np.array([1] * 20 + [-1] * 80)
    X = np.arange(100.0).reshape(-1, 1)
    _, _, y_tr, y_va = holdout_split(X, y, test_size=0.3, stratify=True, random_state=0)
    assert np.sum(y_va == 1) == 6 and np.sum(y_tr == 1) == 14


def test_holdout_risk_matches_manual(data):
    X, y = data
    X_tr, X_va, y_tr, y_va = train_test_split(X, y, test_size=0.3, random_state=2)
    manual = np.mean(SVC().fit(X_tr, y_tr).predict(X_va) != y_va)
    assert holdout_risk(SVC(), X, y, test_size=0.3, random_state=2) == pytest.approx(manual)


def test_holdout_risks_one_per_split_and_match_shufflesplit(data):
    X, y = data
    risks = holdout_risks(LinearDiscriminantAnalysis(), X, y, test_size=0.25, n_splits=6,
                          random_state=3)
    assert risks.shape == (6,)
    ss = ShuffleSplit(n_splits=6, test_size=0.25, random_state=3)
    manual = [np.mean(LinearDiscriminantAnalysis().fit(X[tr], y[tr]).predict(X[va]) != y[va])
              for tr, va in ss.split(X)]
    np.testing.assert_allclose(risks, manual)
    assert np.std(risks) > 0          # different splits give different estimates


def test_select_picks_argmin_and_refits_on_all(data):
    X, y = data
    cands = [SVC(C=c) for c in (1e-3, 1.0, 100.0)]
    sel = holdout_select(cands, X, y, random_state=0)
    assert sel.best_index == int(np.argmin(sel.risks))
    assert sel.best_risk == pytest.approx(sel.risks.min())
    # refit=True: trained on all 120 points (SVC stores the support size per class)
    assert sel.best_estimator.shape_fit_ == (120, 3)
    no_refit = holdout_select(cands, X, y, random_state=0, refit=False)
    assert no_refit.best_estimator.shape_fit_ == (84, 3)
    assert cands[0].__dict__.get("support_") is None     # candidates left unfitted


@pytest.mark.parametrize("bad", [0, 1, 0.0, 1.0, -0.2, 1.5, np.nan, True, [0.3]])
def test_test_size_outside_open_unit(data, bad):
    X, y = data
    with pytest.raises(ValueError, match="test_size"):
        holdout_split(X, y, test_size=bad)
    with pytest.raises(ValueError, match="test_size"):
        holdout_risks(SVC(), X, y, test_size=bad)


def test_unclonable_estimator(data):
    X, y = data
    with pytest.raises(ValueError, match="estimator"):
        holdout_risk(object(), X, y)
    with pytest.raises(ValueError, match=r"candidates\[1\]"):
        holdout_select([SVC(), "svm"], X, y)
    with pytest.raises(ValueError, match="candidates"):
        holdout_select([], X, y)
    assert clone_estimator(SVC(C=2.0)).C == 2.0


def test_mismatched_lengths(data):
    X, y = data
    with pytest.raises(ValueError, match="same length"):
        holdout_risk(SVC(), X, y[:-1])


def test_n_splits_checked(data):
    X, y = data
    with pytest.raises(ValueError, match="n_splits"):
        holdout_risks(SVC(), X, y, n_splits=0)
