"""Tests of cvbook.holdout (chapter 2)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.exceptions import DataConversionWarning
from sklearn.model_selection import ShuffleSplit, train_test_split
from sklearn.svm import SVC

from cvbook.datasets import TwoGaussians
from cvbook.holdout import (
    clone_estimator,
    holdout_risk,
    holdout_risks,
    holdout_select,
    holdout_split,
    stratified_indices,
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
    for a, b in zip(ours, theirs, strict=True):
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
    risks = holdout_risks(
        LinearDiscriminantAnalysis(), X, y, test_size=0.25, n_splits=6, random_state=3
    )
    assert risks.shape == (6,)
    ss = ShuffleSplit(n_splits=6, test_size=0.25, random_state=3)
    manual = [
        np.mean(LinearDiscriminantAnalysis().fit(X[tr], y[tr]).predict(X[va]) != y[va])
        for tr, va in ss.split(X)
    ]
    np.testing.assert_allclose(risks, manual)
    assert np.std(risks) > 0  # different splits give different estimates


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
    assert cands[0].__dict__.get("support_") is None  # candidates left unfitted


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


# --- hostile input (issue 13) and the chapter's experiment functions -------------------


def test_column_y_is_flattened_with_a_warning(data):
    X, y = data
    with pytest.warns(DataConversionWarning):
        col = holdout_risk(LinearDiscriminantAnalysis(), X, y[:, None], random_state=0)
    assert col == holdout_risk(LinearDiscriminantAnalysis(), X, y, random_state=0)


BAD_XY = [
    (lambda X, y: (X, np.c_[y, y]), ValueError, "y must be one-dimensional"),
    (lambda X, y: (X + 1j, y), TypeError, "X must be real"),
    (lambda X, y: (X, y + 0j), TypeError, "y must be real"),
    (lambda X, y: (X[:, 0], y), ValueError, "X must be 2-dimensional"),
    (lambda X, y: (X[:, :0], y), ValueError, "X must have at least one feature"),
    (lambda X, y: (np.where(X > 1, np.nan, X), y), ValueError, "X must be finite"),
    (lambda X, y: (X.astype(str), y), TypeError, "X must hold numbers"),
    (lambda X, y: (X, y[:-1]), ValueError, "same length: X has 120, y has 119"),
]


@pytest.mark.parametrize("bad, exc, match", BAD_XY)
@pytest.mark.parametrize("func", ["split", "risk", "risks", "select"])
def test_bad_xy_refused_by_name_everywhere(data, bad, exc, match, func):
    X, y = bad(*data)
    call = {
        "split": lambda: holdout_split(X, y),
        "risk": lambda: holdout_risk(SVC(), X, y),
        "risks": lambda: holdout_risks(SVC(), X, y, n_splits=2),
        "select": lambda: holdout_select([SVC()], X, y),
    }[func]
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(stratify="yes"), TypeError, "stratify must be True or False"),
        (dict(random_state=-1), ValueError, "random_state must be >= 0"),
        (dict(random_state="0"), TypeError, "random_state must be"),
        (dict(loss="hinge"), ValueError, "loss must be one of"),
        (dict(refit=1), TypeError, "refit must be True or False"),
        (dict(candidates=SVC()), TypeError, "candidates must be a list of estimators"),
        (dict(candidates="svm"), TypeError, "candidates must be a list of estimators"),
    ],
)
def test_select_arguments_checked_up_front(data, kwargs, exc, match):
    X, y = data
    args = dict(candidates=[SVC()], X=X, y=y)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        holdout_select(**args)


def test_generator_seed_is_accepted_and_reproducible(data):
    X, y = data
    a = holdout_risks(SVC(), X, y, n_splits=3, random_state=np.random.default_rng(4))
    b = holdout_risks(SVC(), X, y, n_splits=3, random_state=np.random.default_rng(4))
    np.testing.assert_array_equal(a, b)


@given(
    st.lists(st.sampled_from(["a", "b", "c"]), min_size=6, max_size=60),
    st.integers(0, 2**32 - 1),
    st.data(),
)
@settings(max_examples=60, deadline=None)
def test_stratified_indices_keep_every_class_on_both_sides(labels, seed, draw):
    """Property: disjoint, complete, the requested size, every class on each side."""
    y = np.array(labels)
    classes, counts = np.unique(y, return_counts=True)
    if counts.min() < 2:
        with pytest.raises(ValueError, match="at least 2 points of every class"):
            stratified_indices(y, test_size=0.3, random_state=seed)
        return
    k = len(classes)
    n_test = draw.draw(st.integers(k, len(y) - k))
    train, test = stratified_indices(y, test_size=n_test, random_state=seed)
    assert len(test) == n_test and len(train) == len(y) - n_test
    assert sorted(np.r_[train, test].tolist()) == list(range(len(y)))
    assert set(y[train]) == set(y[test]) == set(classes)
    # proportional up to the rounding and the one-point floor
    share = counts * n_test / len(y)
    got = np.array([np.sum(y[test] == c) for c in classes])
    assert np.all(np.abs(got - share) <= np.maximum(1.0, share - 1) + 1e-9) or k > 2


@pytest.mark.parametrize(
    "y, test_size, match",
    [
        ([1, 1, 1, -1], 2, "at least 2 points of every class"),
        ([1, 1, -1, -1], 1, r"outside \[2, 2\]"),
        ([1, 1, -1, -1], 3, "outside"),
        ([1, 1, -1, -1], 1.5, "test_size"),
        (np.ones((4, 2)), 2, "y must be one-dimensional"),
    ],
)
def test_stratified_indices_refuses(y, test_size, match):
    with pytest.raises(ValueError, match=match):
        stratified_indices(np.asarray(y), test_size=test_size, random_state=0)
