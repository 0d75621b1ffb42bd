"""Tests of cvbook.kfold (chapter 3)."""

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from cvbook.datasets import TwoGaussians
from cvbook.kfold import (
    FoldRisks,
    kfold_from_scratch,
    kfold_indices,
    kfold_risks,
    kfold_select,
    make_kfold,
    nested_kfold,
)


@pytest.fixture
def data():
    return TwoGaussians(dim=3).sample(53, random_state=0)


@pytest.mark.parametrize("k", [2, 3, 5, 10, 53])
def test_from_scratch_folds_equal_sklearn_kfold(k):
    ours = kfold_indices(53, k, random_state=7)
    theirs = [test for _, test in KFold(k, shuffle=True, random_state=7).split(np.zeros(53))]
    assert len(ours) == k
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.sort(np.concatenate(ours)), np.arange(53))


@pytest.mark.parametrize("est", [LinearDiscriminantAnalysis(), SVC(C=0.5), KNeighborsClassifier(3)])
@pytest.mark.parametrize("k", [2, 5, 10])
def test_from_scratch_equals_cross_val_score(data, est, k):
    X, y = data
    ours = kfold_from_scratch(est, X, y, n_splits=k, random_state=3)
    accuracy = cross_val_score(est, X, y, cv=KFold(k, shuffle=True, random_state=3))
    np.testing.assert_allclose(ours, 1 - accuracy, atol=1e-12)


def test_kfold_risks_equals_cross_val_score_and_scratch(data):
    X, y = data
    fr = kfold_risks(SVC(), X, y, n_splits=5, random_state=11)
    accuracy = cross_val_score(SVC(), X, y, cv=KFold(5, shuffle=True, random_state=11))
    np.testing.assert_allclose(fr.risks, 1 - accuracy, atol=1e-12)
    np.testing.assert_allclose(fr.risks, kfold_from_scratch(SVC(), X, y, 5, random_state=11))
    assert fr.sizes.tolist() == [11, 11, 11, 10, 10]


def test_stratified_kfold_risks_equal_cross_val_score(data):
    X, y = data
    fr = kfold_risks(SVC(), X, y, n_splits=4, stratify=True, random_state=2)
    cv = StratifiedKFold(4, shuffle=True, random_state=2)
    np.testing.assert_allclose(fr.risks, 1 - cross_val_score(SVC(), X, y, cv=cv), atol=1e-12)


def test_fold_risks_mean_pooled_sum():
    fr = FoldRisks(risks=np.array([0.0, 0.5, 0.25]), sizes=np.array([4, 4, 4]))
    assert fr.mean == pytest.approx(0.25) and fr.pooled == pytest.approx(0.25)
    assert fr.total == pytest.approx(3 * fr.mean)
    uneq = FoldRisks(risks=np.array([1 / 3, 0.5]), sizes=np.array([3, 2]))
    assert uneq.mean == pytest.approx(5 / 12)
    assert uneq.pooled == pytest.approx(2 / 5)  # 2 errors out of 5 points
    assert uneq.std == pytest.approx(np.std([1 / 3, 0.5], ddof=1))


def test_pooled_is_error_over_all_points(data):
    X, y = data
    fr = kfold_risks(LinearDiscriminantAnalysis(), X, y, n_splits=5, random_state=0)
    n_errors = np.round(fr.risks * fr.sizes).sum()
    assert fr.pooled == pytest.approx(n_errors / len(y))


def test_select_uses_same_folds_and_refits(data):
    X, y = data
    cands = [SVC(C=c) for c in (1e-3, 1.0, 100.0)]
    sel = kfold_select(cands, X, y, n_splits=5, random_state=4)
    for i, est in enumerate(cands):
        np.testing.assert_allclose(sel.risks[i], kfold_risks(est, X, y, 5, random_state=4).risks)
    assert sel.best_index == int(np.argmin(sel.risks.mean(axis=1)))
    assert sel.best_estimator.shape_fit_ == X.shape
    assert not hasattr(kfold_select(cands, X, y, refit=False).best_estimator, "shape_fit_")


def test_nested_kfold_outer_folds_are_honest(data):
    X, y = data
    cands = [SVC(C=c) for c in (1e-3, 1.0)]
    res = nested_kfold(cands, X, y, outer_splits=3, inner_splits=3, random_state=0)
    assert res.outer.n_splits == 3 and res.outer.sizes.sum() == len(y)
    outer = make_kfold(3, y=y, random_state=0)
    for j, (train, test) in enumerate(outer.split(X, y)):
        sel = kfold_select(cands, X[train], y[train], n_splits=3, random_state=0)
        assert res.chosen[j] == sel.best_index
        assert res.inner_best[j] == pytest.approx(sel.best_risk)
        err = np.mean(sel.best_estimator.predict(X[test]) != y[test])
        assert res.outer.risks[j] == pytest.approx(err)


@pytest.mark.parametrize("k", [1, 0, -3, 54, 2.0, True, "5"])
def test_bad_n_splits(data, k):
    X, y = data
    with pytest.raises(ValueError, match="n_splits"):
        kfold_risks(SVC(), X, y, n_splits=k)
    with pytest.raises(ValueError, match="n_splits"):
        kfold_from_scratch(SVC(), X, y, n_splits=k)


def test_stratify_needs_k_members_per_class():
    X = np.arange(20.0).reshape(-1, 1)
    y = np.array([1] * 3 + [-1] * 17)
    with pytest.raises(ValueError, match=r"n_splits=5.*class 1.*3 members"):
        kfold_risks(SVC(), X, y, n_splits=5, stratify=True)
    assert kfold_risks(SVC(), X, y, n_splits=3, stratify=True).n_splits == 3
    # Seeded: an unseeded shuffle puts the 3 members of class 1 in one fold once in about
    # 57 runs (5 * 4/20 * 3/19 * 2/18), leaving a training part with one class (a
    # fresh-clone run met it).
    assert kfold_risks(SVC(), X, y, n_splits=5, stratify=False, random_state=0).n_splits == 5


# --- candidate_grid and the shared box plot ----------------------------------------------


def test_estimate_boxplot_draws_and_refuses():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from cvbook.plotting import estimate_boxplot

    fig, ax = plt.subplots()
    errs = np.random.default_rng(0).normal(size=(30, 3))
    parts = estimate_boxplot(ax, errs, ["a", "b", "c"], colors=["r", "g", "b"])
    assert len(parts["boxes"]) == 3
    np.testing.assert_allclose(ax.lines[-2].get_xdata(), errs.mean(axis=0))  # the means
    for bad, match in [
        (np.full((3, 2), np.nan), "errors"),
        (np.empty((0, 2)), "errors"),
        (np.ones((3, 2)) * 1j, "errors"),
    ]:
        with pytest.raises(ValueError, match=match):
            estimate_boxplot(ax, bad, ["a", "b"])
    with pytest.raises(TypeError, match="labels"):
        estimate_boxplot(ax, errs, ["a", "b"])
    with pytest.raises(TypeError, match="colors"):
        estimate_boxplot(ax, errs, ["a", "b", "c"], colors="red")
    with pytest.raises(TypeError, match="ax"):
        estimate_boxplot(None, errs, ["a", "b", "c"])
    plt.close(fig)


# --- hostile input (issue 13): every bad argument named, no silent wrong answer ----------


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(outer_splits=1), "outer_splits"),
        (dict(outer_splits=0), "outer_splits"),
        (dict(outer_splits=2.0), "outer_splits"),
        (dict(outer_splits="5"), "outer_splits"),
        (dict(outer_splits=True), "outer_splits"),
        (dict(outer_splits=54), "outer_splits"),
        (dict(inner_splits=1), "inner_splits"),
        (dict(inner_splits=-3), "inner_splits"),
        (dict(inner_splits=3.5), "inner_splits"),
        (dict(inner_splits=50), "inner_splits"),  # more than the outer training part holds
    ],
)
def test_nested_kfold_names_the_bad_split_count(data, kwargs, match):
    X, y = data
    with pytest.raises(ValueError, match=match):
        nested_kfold([SVC()], X, y, **kwargs)


def test_nested_kfold_inner_splits_may_use_the_whole_outer_training_part(data):
    X, y = data  # 53 points, 5 outer folds: smallest training part 42
    res = nested_kfold(
        [LinearDiscriminantAnalysis()], X, y, outer_splits=5, inner_splits=42, random_state=0
    )
    assert res.outer.n_splits == 5


def test_cv_int_is_the_number_of_folds_as_in_sklearn(data):
    X, y = data
    by_int = kfold_risks(LinearDiscriminantAnalysis(), X, y, cv=4, random_state=3)
    by_n = kfold_risks(LinearDiscriminantAnalysis(), X, y, n_splits=4, random_state=3)
    np.testing.assert_array_equal(by_int.risks, by_n.risks)


@pytest.mark.parametrize(
    "cv, match",
    [
        ([], "cv"),
        ((), "cv"),
        (iter([]), "cv"),
        (1, "cv"),
        (0, "cv"),
        (54, "cv"),
        (2.5, "cv"),
        ("5", "cv"),
        (True, "cv"),
        ([([0, 1], [])], "cv"),
        ([([0], [99])], "cv"),
        ([([0], [-1])], "cv"),
        ([(0, 1, 2)], "cv"),
    ],
)
def test_bad_cv_refused_by_name(data, cv, match):
    X, y = data
    with pytest.raises(ValueError, match=match):
        kfold_risks(LinearDiscriminantAnalysis(), X, y, cv=cv)


@pytest.mark.parametrize("func", ["scratch", "risks", "select", "nested"])
def test_column_y_flattened_with_warning_and_same_answer(data, func):
    from sklearn.exceptions import DataConversionWarning

    X, y = data
    run = {
        "scratch": lambda yy: kfold_from_scratch(LinearDiscriminantAnalysis(), X, yy, 5, 0),
        "risks": lambda yy: (
            kfold_risks(LinearDiscriminantAnalysis(), X, yy, 5, random_state=0).risks
        ),
        "select": lambda yy: kfold_select([SVC(C=1.0), SVC(C=10.0)], X, yy, random_state=0).risks,
        "nested": lambda yy: (
            nested_kfold([SVC(C=1.0), SVC(C=10.0)], X, yy, 3, 3, random_state=0).outer.risks
        ),
    }[func]
    with pytest.warns(DataConversionWarning):
        col = run(y[:, None])
    np.testing.assert_array_equal(col, run(y))


@pytest.mark.parametrize(
    "bad_y, match",
    [
        ("2d", "y"),
        ("complex", "y"),
        ("short", "same length"),
        ("nan", "y"),
        ("empty", "y"),
    ],
)
@pytest.mark.parametrize("func", ["scratch", "risks", "select", "nested"])
def test_bad_y_refused(data, bad_y, match, func):
    X, y = data
    y_bad = {
        "2d": np.c_[y, y],
        "complex": y + 0j,
        "short": y[:-1],
        "nan": np.where(y > 0, 1.0, np.nan),
        "empty": y[:0],
    }[bad_y]
    run = {
        "scratch": lambda: kfold_from_scratch(LinearDiscriminantAnalysis(), X, y_bad, 5, 0),
        "risks": lambda: kfold_risks(LinearDiscriminantAnalysis(), X, y_bad, 5),
        "select": lambda: kfold_select([SVC()], X, y_bad),
        "nested": lambda: nested_kfold([SVC()], X, y_bad, 3, 3),
    }[func]
    with pytest.raises(ValueError, match=match):
        run()


@pytest.mark.parametrize("bad_X", ["complex", "strings", "1d", "no_columns", "inf"])
def test_bad_X_refused_by_name(data, bad_X):
    X, y = data
    X_bad = {
        "complex": X + 1j,
        "strings": X.astype(str),
        "1d": X[:, 0],
        "no_columns": X[:, :0],
        "inf": np.where(X > 2, np.inf, X),
    }[bad_X]
    with pytest.raises(ValueError, match="X"):
        kfold_risks(LinearDiscriminantAnalysis(), X_bad, y, 5)


@pytest.mark.parametrize("seed", [0, 7, np.int64(7), 2**32 - 1])
def test_kfold_indices_identical_to_sklearn_for_any_int(seed):
    ours = kfold_indices(23, 4, random_state=seed)
    theirs = [t for _, t in KFold(4, shuffle=True, random_state=seed).split(np.zeros(23))]
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "seed", [np.random.default_rng(1), np.random.RandomState(1), np.random.SeedSequence(1), None]
)
def test_every_seed_kind_accepted(data, seed):
    X, y = data
    folds = kfold_indices(20, 4, random_state=seed)
    np.testing.assert_array_equal(np.sort(np.concatenate(folds)), np.arange(20))
    assert kfold_risks(LinearDiscriminantAnalysis(), X, y, 4, random_state=seed).n_splits == 4
    assert make_kfold(3, m=10, random_state=seed).get_n_splits() == 3


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(stratify="yes"), "stratify"),
        (dict(shuffle=1), "shuffle"),
        (dict(n_splits=2.0), "n_splits"),
        (dict(n_splits=np.inf), "n_splits"),
    ],
)
def test_make_kfold_flags_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_kfold(m=10, **{"n_splits": 3, **kwargs})


def test_empty_or_single_candidates_refused(data):
    X, y = data
    with pytest.raises(ValueError, match="candidates"):
        kfold_select([], X, y)
    with pytest.raises(TypeError, match="candidates"):
        kfold_select(SVC(), X, y)
    with pytest.raises(TypeError, match="candidates"):
        nested_kfold("svm", X, y)


# --- the fast grid selection equals the generic one; the study and its summaries ---------
