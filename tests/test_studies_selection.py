"""cvbook.studies.selection: the chapter's experiments."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from cvbook.datasets import TwoGaussians
from cvbook.kfold import (
    kfold_indices,
    kfold_risks,
    kfold_select,
    make_kfold,
    nested_kfold,
)
from cvbook.studies.selection import (
    KernelRidgeClassifier,
    candidate_grid,
    choice_costs,
    grid_nested_kfold,
    selection_study,
    selection_summary,
    selection_trial,
)


@pytest.fixture
def data():
    return TwoGaussians(dim=3).sample(53, random_state=0)


def test_selection_trial_is_paired_and_reproducible():
    cands = [SVC(C=0.1), SVC(C=1.0), DecisionTreeClassifier(random_state=0)]
    dist = TwoGaussians(dim=3)
    a = selection_trial(7, dist, cands, m=60, n_mc=2000)
    b = selection_trial(np.random.default_rng(7), dist, cands, m=60, n_mc=2000)
    assert a["n_val"] == 18 and a["n_test"] == 60
    for key in ("val_errors", "risk_validated", "risk_retrained", "test_errors"):
        np.testing.assert_array_equal(a[key], b[key])
        assert a[key].shape == (3,)
    assert np.all((a["val_errors"] >= 0) & (a["val_errors"] <= 18))
    assert np.all(a["risk_validated"] >= 0) and np.all(a["risk_retrained"] <= 1)


def test_selection_trial_measures_the_truth_it_claims():
    """The validation error of a fixed model is unbiased for its true risk (|z| < 4)."""
    dist = TwoGaussians(dim=2)
    rows = [
        selection_trial(s, dist, [LinearDiscriminantAnalysis()], m=40, n_mc=2000)
        for s in range(150)
    ]
    diffs = np.array([r["val_errors"][0] / r["n_val"] - r["risk_validated"][0] for r in rows])
    assert abs(diffs.mean()) < 4 * diffs.std(ddof=1) / np.sqrt(len(diffs))


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (dict(m=7), ValueError, "m must be >= 8"),
        (dict(test_size=0.01), ValueError, "each part needs at least 2"),
        (dict(test_size=1.0), ValueError, "test_size"),
        (dict(candidates=[]), ValueError, "candidates must hold at least one"),
        (dict(n_mc=0), ValueError, "n_mc must be >= 1"),
        (dict(m_test=0), ValueError, "m_test must be >= 1"),
        (dict(distribution=3), TypeError, "distribution must have a sample"),
        (dict(rng=True), TypeError, "rng must be"),
    ],
)
def test_selection_trial_refuses_by_name(kwargs, exc, match):
    args = dict(rng=0, distribution=TwoGaussians(), candidates=[SVC()], m=40, n_mc=100)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        selection_trial(**args)


def test_selection_summary_by_hand():
    t1 = {
        "n_val": 10,
        "n_test": 20,
        "val_errors": np.array([2, 1, 1]),
        "risk_validated": np.array([0.30, 0.20, 0.10]),
        "risk_retrained": np.array([0.25, 0.15, 0.12]),
        "test_errors": np.array([5, 4, 3]),
    }
    s = selection_summary([t1, t1], fixed_index=0)
    assert s["best"].tolist() == [1, 1]  # first of the tied minima
    np.testing.assert_allclose(s["regret"], 0.10)
    np.testing.assert_allclose(s["regret_random"], 0.10)
    np.testing.assert_allclose(s["optimism"], 0.1 - 0.2)
    np.testing.assert_allclose(s["retrained_best"], 0.15)
    np.testing.assert_allclose(s["test_best"], 4 / 20)
    np.testing.assert_allclose(s["val_fixed"], 0.2)
    sub = selection_summary([t1], subset=[0, 2])
    assert sub["best"].tolist() == [2] and sub["regret"][0] == 0.0
    for bad in ([], [3], [-1], [0.5]):
        with pytest.raises(ValueError, match="subset"):
            selection_summary([t1], subset=bad)
    with pytest.raises(ValueError, match="trials"):
        selection_summary([])


def test_candidate_grid_defaults_and_fixed():
    from cvbook.studies.selection import candidate_grid

    svm = candidate_grid("svm")
    assert svm.name == "C" and svm.values == [0.1, 1.0, 10.0, 100.0]
    assert svm.fixed_index == 1 and svm.fixed.get_params()["C"] == 1.0
    assert [c.get_params()["C"] for c in svm.candidates] == svm.values
    knn = candidate_grid("knn", values=[1, 3, 5])
    assert knn.fixed_index == 2 and [c.n_neighbors for c in knn.candidates] == [1, 3, 5]
    assert candidate_grid("knn", values=[2, 4]).fixed_index is None


def test_candidate_grid_two_dimensional():
    from cvbook.studies.selection import candidate_grid

    g = candidate_grid("svm", values=[0.1, 1, 10, 100, 1000], gammas=[0.01, 0.03, 0.1, 0.3, 1, 3])
    assert len(g.candidates) == 30 and g.name == "(C, gamma)"
    assert g.values[0] == (0.1, 0.01) and g.values[-1] == (1000.0, 3.0)
    assert {(c.C, c.gamma) for c in g.candidates} == set(g.values)
    assert g.make((2.0, 0.5)).get_params()["gamma"] == 0.5


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(model="forest"), "model"),
        (dict(model=None), "model"),
        (dict(model="svm", values=[]), "values"),
        (dict(model="svm", values="1,10"), "values"),
        (dict(model="svm", values=[0.0, 1.0]), "values"),
        (dict(model="svm", values=[np.nan]), "values"),
        (dict(model="svm", values=["1"]), "values"),
        (dict(model="knn", values=[3.7]), "values"),
        (dict(model="knn", values=[0]), "values"),
        (dict(model="knn", values=[5], gammas=[1.0]), "gammas"),
        (dict(model="svm", gammas=[]), "gammas"),
        (dict(model="svm", gammas=[-1.0]), "gammas"),
        (dict(model="svm", gammas=[1j]), "gammas"),
    ],
)
def test_candidate_grid_refuses_by_name(kwargs, match):
    from cvbook.studies.selection import candidate_grid

    with pytest.raises(ValueError, match=match):
        candidate_grid(**kwargs)


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5, "0", True, [1]])
@pytest.mark.parametrize("func", ["indices", "make", "risks", "select", "nested", "grid"])
def test_bad_seed_refused_by_name(data, seed, func):
    X, y = data
    run = {
        "indices": lambda: kfold_indices(20, 4, random_state=seed),
        "make": lambda: make_kfold(3, m=10, random_state=seed),
        "risks": lambda: kfold_risks(LinearDiscriminantAnalysis(), X, y, 4, random_state=seed),
        "select": lambda: kfold_select([SVC()], X, y, random_state=seed),
        "nested": lambda: nested_kfold([SVC()], X, y, 3, 3, random_state=seed),
        "grid": lambda: grid_nested_kfold(X, y, [1.0], [1.0], 3, 3, random_state=seed),
    }[func]
    with pytest.raises(ValueError, match="random_state"):
        run()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_grid_nested_equals_generic_nested(seed):
    X, y = TwoGaussians(dim=3).sample(24, random_state=seed)
    alphas, gammas = [0.01, 1.0], [0.1, 1.0]
    grid = candidate_grid("kridge", alphas, gammas)
    fast = grid_nested_kfold(X, y, alphas, gammas, 3, 3, random_state=seed)
    sel = kfold_select(grid.candidates, X, y, 3, random_state=seed)
    nest = nested_kfold(grid.candidates, X, y, 3, 3, random_state=seed)
    np.testing.assert_allclose(fast.scores, sel.mean_risks, atol=1e-12)
    assert fast.best_index == sel.best_index
    np.testing.assert_allclose(fast.nested.outer.risks, nest.outer.risks, atol=1e-12)
    np.testing.assert_array_equal(fast.nested.chosen, nest.chosen)
    np.testing.assert_allclose(fast.nested.inner_best, nest.inner_best, atol=1e-12)


def test_kernel_ridge_classifier_labels_and_one_class():
    X, y = TwoGaussians(dim=2).sample(30, random_state=0)
    labels = np.where(y > 0, "pos", "neg")
    clf = KernelRidgeClassifier(alpha=0.1, gamma=0.5).fit(X, labels)
    assert set(clf.predict(X)) <= {"pos", "neg"}
    one = KernelRidgeClassifier().fit(X, np.ones(30))
    np.testing.assert_array_equal(one.predict(X), np.ones(30))
    with pytest.raises(ValueError, match="alpha"):
        KernelRidgeClassifier(alpha=0).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        clf.predict(X[:, :1])


def test_selection_study_null_truth_and_n_jobs():
    kw = dict(
        distribution=TwoGaussians(dim=2),
        m=20,
        alphas=[0.1, 1.0],
        gammas=[1.0],
        n_repeats=3,
        outer_splits=3,
        inner_splits=3,
        random_state=4,
        n_test=500,
    )
    one = selection_study(n_jobs=1, null=True, **kw)
    two = selection_study(n_jobs=2, null=True, **kw)
    np.testing.assert_array_equal(one.own, two.own)
    np.testing.assert_array_equal(one.truths, 0.5)
    real = selection_study(n_jobs=1, **kw)
    assert np.all((real.truths > 0) & (real.truths < 0.5))
    with pytest.raises(ValueError, match="null"):
        selection_study(null="no", **kw)


# ---- issue 25 item 7: what the hold-out choice costs at m ----


def test_choice_costs_decomposes_the_regret():
    trials = [
        {
            "n_val": 10,
            "val_errors": np.array([1, 2, 3]),
            "risk_validated": np.array([0.30, 0.20, 0.40]),
            "risk_retrained": np.array([0.25, 0.19, 0.18]),
        },
        {
            "n_val": 10,
            "val_errors": np.array([2, 2, 5]),
            "risk_validated": np.array([0.20, 0.25, 0.30]),
            "risk_retrained": np.array([0.15, 0.20, 0.25]),
        },
    ]
    c = choice_costs(trials)
    assert c["pick"].tolist() == [0, 0] and c["best_train"].tolist() == [1, 0]
    assert c["best_full"].tolist() == [2, 0]
    assert np.allclose(c["regret"], [0.07, 0.0]) and np.allclose(c["size_shift"], [0.01, 0.0])
    assert np.allclose(c["regret"], c["size_shift"] + c["noise"])
    sub = choice_costs(trials, subset=[1, 2])  # among the last two only
    assert sub["pick"].tolist() == [1, 1] and np.allclose(sub["regret"], [0.01, 0.0])


def test_choice_costs_on_real_trials_is_nonnegative():
    from sklearn.svm import SVC

    from cvbook.datasets import TwoGaussians

    trials = [
        selection_trial(s, TwoGaussians(), [SVC(C=0.1), SVC(C=10.0)], m=40, n_mc=500)
        for s in range(3)
    ]
    c = choice_costs(trials)
    assert np.all(c["regret"] >= 0) and np.all(c["size_shift"] >= 0)
    assert np.allclose(c["regret"], c["size_shift"] + c["noise"])


@pytest.mark.parametrize("subset", [[], [3], [0.5], [-1]])
def test_choice_costs_refuses_a_bad_subset(subset):
    trial = {
        "n_val": 10,
        "val_errors": np.array([1, 2, 3]),
        "risk_validated": np.array([0.3, 0.2, 0.4]),
        "risk_retrained": np.array([0.2, 0.2, 0.2]),
    }
    with pytest.raises(ValueError, match="subset"):
        choice_costs([trial], subset=subset)


def test_choice_costs_refuses_no_trials():
    with pytest.raises(ValueError, match="trials"):
        choice_costs([])


def test_grid_studies_take_a_numpy_grid_as_the_same_list():
    """A 1-d real array was refused as if its values were wrong; it is the same grid."""
    X, y = TwoGaussians(dim=3).sample(24, random_state=0)
    as_list = grid_nested_kfold(X, y, [0.01, 1.0], [0.1, 1.0], 3, 3, random_state=0)
    as_array = grid_nested_kfold(X, y, np.array([0.01, 1.0]), np.array([0.1, 1.0]), 3, 3,
                                 random_state=0)  # fmt: skip
    np.testing.assert_array_equal(as_array.scores, as_list.scores)
    assert as_array.best_index == as_list.best_index
    np.testing.assert_array_equal(as_array.nested.chosen, as_list.nested.chosen)
    np.testing.assert_array_equal(as_array.nested.outer.risks, as_list.nested.outer.risks)


@pytest.mark.parametrize(
    ("alphas", "gammas", "message"),
    [
        (
            [0.1, 0.1],
            [1.0],
            "alphas must be a non-empty list, tuple or 1-d array of distinct positive numbers, "
            "got 0.1 twice in [0.1, 0.1]",
        ),
        (
            [0.1],
            np.array([1.0, 2.0, 1.0]),
            "gammas must be a non-empty list, tuple or 1-d array of distinct positive numbers, "
            "got 1.0 twice in [1.0, 2.0, 1.0]",
        ),
        (
            np.array([[0.1, 1.0]]),
            [1.0],
            "alphas must be a non-empty list, tuple or 1-d array of distinct positive numbers, "
            "got array([[0.1, 1. ]])",
        ),
    ],
)
def test_grid_studies_refuse_a_repeated_or_shapeless_grid_by_name(alphas, gammas, message):
    """A repeated value counted one candidate twice (and ``chosen`` named either copy)."""
    X, y = TwoGaussians(dim=3).sample(24, random_state=0)
    for call in (
        lambda: grid_nested_kfold(X, y, alphas, gammas, 3, 3, random_state=0),
        lambda: selection_study(TwoGaussians(), 24, alphas, gammas, n_repeats=1, n_jobs=1),
    ):
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == message
