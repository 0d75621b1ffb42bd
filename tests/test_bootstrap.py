"""The bootstrap estimates (cvbook.bootstrap) against the papers' formulas and mlxtend."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from cvbook.bootstrap import (
    BootstrapSplit,
    bootstrap_estimates,
    bootstrap_replicate_errors,
    no_information_rate,
)

mlxtend_evaluate = pytest.importorskip("mlxtend.evaluate")


def _data(m=40, seed=0, informative=True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 3))
    y = (
        (X[:, 0] + 0.8 * rng.normal(size=m) > 0).astype(int)
        if informative
        else rng.integers(0, 2, m)
    )
    return X, y


def _by_hand(estimator, X, y, splits, loss):
    """Efron and Tibshirani (1997), (6)-(8) and (27)-(32), written out with loops."""
    q = (lambda a, b: float(a != b)) if loss == "zero_one" else (lambda a, b: (a - b) ** 2)
    m = len(y)
    preds = [estimator.fit(X[tr], y[tr]).predict(X) for tr, _ in splits]
    per_point = []
    for i in range(m):
        out = [q(y[i], p[i]) for (tr, _), p in zip(splits, preds, strict=True) if i not in set(tr)]
        if out:
            per_point.append(sum(out) / len(out))
    err1 = sum(per_point) / len(per_point)
    full = estimator.fit(X, y).predict(X)
    err = sum(q(y[i], full[i]) for i in range(m)) / m
    gamma = sum(q(y[i], full[j]) for i in range(m) for j in range(m)) / m**2
    err632 = 0.368 * err + 0.632 * err1
    e1 = min(err1, gamma)
    r = (e1 - err) / (gamma - err) if (err1 > err and gamma > err) else 0.0
    plus = err632 + (e1 - err) * (0.368 * 0.632 * r) / (1 - 0.368 * r)
    boot = sum(q(y[i], p[i]) for p in preds for i in range(m)) / (m * len(preds))
    return err, err1, err632, gamma, plus, boot


@pytest.mark.parametrize(
    ("estimator", "loss", "informative"),
    [
        (LinearDiscriminantAnalysis(), "zero_one", True),
        (KNeighborsClassifier(1), "zero_one", False),
        (DecisionTreeClassifier(max_depth=2, random_state=0), "zero_one", True),
        (Ridge(alpha=1.0), "squared", True),
    ],
)
def test_estimates_equal_the_papers_formulas(estimator, loss, informative):
    X, y = _data(30, seed=3, informative=informative)
    if loss == "squared":
        y = X[:, 0] + np.random.default_rng(1).normal(size=len(y))
    splits = list(BootstrapSplit(25, random_state=4).split(X))
    est = bootstrap_estimates(estimator, X, y, loss=loss, splits=splits)
    err, err1, err632, gamma, plus, boot = _by_hand(estimator, X, y, splits, loss)
    assert est.err_boot == pytest.approx(boot, abs=1e-12)
    assert est.err_train == pytest.approx(err, abs=1e-12)
    assert est.err1 == pytest.approx(err1, abs=1e-12)
    assert est.err632 == pytest.approx(err632, abs=1e-12)
    assert est.gamma == pytest.approx(gamma, abs=1e-12)
    assert est.err632plus == pytest.approx(plus, abs=1e-12)
    assert min(est.err632, est.err1) - 1e-12 <= est.err632plus <= max(est.err632, est.err1) + 1e-12


def test_capping_when_err1_exceeds_gamma():
    # A rule worse than no information: Err^(1) > gamma, so R' = 1 and Err^(1)' = gamma.
    X, y = _data(30, seed=5, informative=False)
    splits = list(BootstrapSplit(30, random_state=0).split(X))
    for seed in range(40):
        X, y = _data(30, seed=seed, informative=False)
        est = bootstrap_estimates(KNeighborsClassifier(3), X, y, splits=splits)
        if est.err1 > est.gamma and est.err1 > est.err_train:
            break
    else:
        pytest.fail("no draw with Err^(1) > gamma among 40 seeds")
    _, _, _, _, plus, _ = _by_hand(KNeighborsClassifier(3), X, y, splits, "zero_one")
    assert est.relative_overfitting == 1.0
    assert est.err632plus == pytest.approx(plus, abs=1e-12)
    assert est.err632plus <= est.err1


@pytest.mark.parametrize("method", ["oob", ".632"])
@pytest.mark.parametrize("kind", ["classifier", "regressor"])
def test_per_sample_quantities_agree_with_mlxtend(method, kind):
    X, y = _data(35, seed=2)
    if kind == "classifier":
        estimator, loss = DecisionTreeClassifier(max_depth=3, random_state=0), "zero_one"
    else:
        y = X @ np.array([1.0, -0.5, 0.2]) + np.random.default_rng(0).normal(size=len(y))
        estimator, loss = Ridge(alpha=0.5), "squared"
    scores = mlxtend_evaluate.bootstrap_point632_score(
        estimator, X, y, n_splits=20, method=method, random_seed=7
    )
    splits = mlxtend_evaluate.BootstrapOutOfBag(n_splits=20, random_seed=7).split(X)
    oob, full = bootstrap_replicate_errors(estimator, X, y, splits, loss=loss)
    if kind == "classifier":  # mlxtend returns accuracies
        mine = 1.0 - oob if method == "oob" else 1.0 - (0.632 * oob + 0.368 * full)
    else:  # and, for a regressor, the mean squared errors themselves
        mine = oob if method == "oob" else 0.632 * oob + 0.368 * full
    np.testing.assert_allclose(mine, scores, rtol=0, atol=1e-12)


def test_err1_weighs_points_not_samples():
    # Efron and Tibshirani's Err^(1) is not the mean over samples of the out-of-bag
    # error (mlxtend's "oob"): the two differ on a typical data set.
    X, y = _data(30, seed=8)
    splits = list(BootstrapSplit(15, random_state=1).split(X))
    est = bootstrap_estimates(DecisionTreeClassifier(random_state=0), X, y, splits=splits)
    oob, _ = bootstrap_replicate_errors(DecisionTreeClassifier(random_state=0), X, y, splits)
    assert abs(est.err1 - np.nanmean(oob)) > 1e-6


def test_no_information_rate_equals_all_pairs():
    rng = np.random.default_rng(0)
    y, f = rng.integers(0, 3, 25), rng.integers(0, 3, 25)
    pairs = np.mean([a != b for a, b in itertools.product(y, f)])
    assert no_information_rate(y, f) == pytest.approx(pairs, abs=1e-12)
    yr, fr = rng.normal(size=25), rng.normal(size=25)
    pairs = np.mean([(a - b) ** 2 for a, b in itertools.product(yr, fr)])
    assert no_information_rate(yr, fr, loss="squared") == pytest.approx(pairs, abs=1e-12)


def test_one_nn_on_noise_is_the_classic_failure():
    # ESL 7.11 / Efron and Tibshirani: 1-NN, labels independent of x, true risk 1/2.
    vals = []
    for seed in range(20):
        X, y = _data(60, seed=100 + seed, informative=False)
        vals.append(
            bootstrap_estimates(KNeighborsClassifier(1), X, y, n_bootstraps=50, random_state=seed)
        )
    assert all(v.err_train == 0.0 for v in vals)
    err1 = np.mean([v.err1 for v in vals])
    assert abs(err1 - 0.5) < 0.06
    assert np.mean([v.err632 for v in vals]) == pytest.approx(0.632 * err1, abs=1e-12)
    assert np.mean([v.err632plus for v in vals]) > 0.45


def test_n_jobs_and_seed_do_not_change_or_do_change_the_answer():
    X, y = _data(30)
    a = bootstrap_estimates(LinearDiscriminantAnalysis(), X, y, 20, random_state=3, n_jobs=1)
    b = bootstrap_estimates(LinearDiscriminantAnalysis(), X, y, 20, random_state=3, n_jobs=2)
    c = bootstrap_estimates(LinearDiscriminantAnalysis(), X, y, 20, random_state=4, n_jobs=1)
    assert a == b
    assert a.err1 != c.err1 or a.n_never_out != c.n_never_out
    assert a.n_fits == 21


def test_bootstrap_split():
    X = np.zeros((200, 1))
    splits = list(BootstrapSplit(50, random_state=0).split(X))
    assert [tr.tolist() for tr, _ in splits] == [
        tr.tolist() for tr, _ in BootstrapSplit(50, random_state=0).split(X)
    ]
    share_out = np.mean([len(te) / 200 for _, te in splits])
    assert share_out == pytest.approx((1 - 1 / 200) ** 200, abs=0.02)
    assert BootstrapSplit(7).get_n_splits() == 7


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"loss": "absolute"}, "loss"),
        ({"n_bootstraps": 0}, "n_bootstraps"),
        ({"n_bootstraps": 2.5}, "n_bootstraps"),
        ({"random_state": -1}, "random_state"),
        ({"splits": []}, "splits"),
        ({"splits": [(np.array([0.5, 1.0]), np.array([2]))]}, "splits"),
        ({"splits": [(np.array([0, 1]), np.array([99]))]}, "splits"),
        ({"splits": [(np.array([0, 1]), np.array([1, 2]))]}, "splits"),
        ({"splits": [(np.array([], dtype=int), np.array([1, 2]))]}, "splits"),
        ({"splits": "abc"}, "splits"),
    ],
)
def test_bad_arguments_are_named(kwargs, match):
    X, y = _data(20)
    with pytest.raises((ValueError, TypeError), match=match):
        bootstrap_estimates(LinearDiscriminantAnalysis(), X, y, **kwargs)


def test_labels_and_shapes_are_checked():
    X, y = _data(20)
    with pytest.raises(ValueError, match="y"):
        bootstrap_estimates(LinearDiscriminantAnalysis(), X, y[:-1])
    with pytest.warns(Warning):
        est = bootstrap_estimates(LinearDiscriminantAnalysis(), X, y[:, None], 10, random_state=0)
    assert est == bootstrap_estimates(LinearDiscriminantAnalysis(), X, y, 10, random_state=0)


def test_tuned_svc_chooses_as_grid_search():
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.svm import SVC

    from cvbook.learners import TunedSVC

    for seed in range(3):
        X, y = _data(40, seed=seed)
        mine = TunedSVC().fit(X, y)
        ref = GridSearchCV(
            SVC(), {"C": [0.1, 1.0, 10.0], "gamma": [0.1, 0.5, 2.0]}, cv=StratifiedKFold(3)
        ).fit(X, y)
        assert mine.best_params_ == ref.best_params_
        np.testing.assert_array_equal(mine.predict(X), ref.predict(X))


def test_stratified_samples_keep_the_class_counts():
    X, y = _data(30, seed=4)
    counts = np.bincount(y)
    for train, test in BootstrapSplit(20, random_state=0, stratify=True).split(X, y):
        np.testing.assert_array_equal(np.bincount(y[train], minlength=2), counts)
        assert np.intersect1d(train, test).size == 0
        assert np.union1d(train, test).size == len(y)
    with pytest.raises(ValueError, match="y"):
        next(BootstrapSplit(2, stratify=True).split(X))
    with pytest.raises(TypeError, match="stratify"):
        BootstrapSplit(2, stratify="yes")
    a = bootstrap_estimates(LinearDiscriminantAnalysis(), X, y, 10, random_state=0, stratify=True)
    b = bootstrap_estimates(LinearDiscriminantAnalysis(), X, y, 10, random_state=0)
    assert a != b


def test_study_is_reproducible_for_a_non_linear_learner():
    # L(f_S) of a non-linear model is scored on fresh points drawn from the trial's seed.
    from cvbook.studies.bootstrap_vs_cv import bootstrap_study

    a = bootstrap_study("twogaussians", "1nn", 20, 3, n_bootstraps=5, random_state=2, n_fresh=500)
    b = bootstrap_study(
        "twogaussians", "1nn", 20, 3, n_bootstraps=5, random_state=2, n_fresh=500, n_jobs=2
    )
    assert all(np.array_equal(a[k], b[k]) for k in a.values)


@pytest.mark.parametrize("method", [".632", ".632+", "oob"])
def test_mlxtend_style_estimates_are_mlxtend_s(method):
    from sklearn.neighbors import KNeighborsClassifier

    from cvbook.studies.bootstrap_vs_cv import NoInformation, mlxtend_style_estimates

    X, y = NoInformation().sample(30, random_state=3)
    est = KNeighborsClassifier(n_neighbors=1)
    scores = mlxtend_evaluate.bootstrap_point632_score(
        est, X, y, n_splits=20, method=method, random_seed=7
    )
    splits = list(mlxtend_evaluate.BootstrapOutOfBag(n_splits=20, random_seed=7).split(X))
    ours = mlxtend_style_estimates(est, X, y, splits=splits)
    assert np.isclose(ours[method], 1 - np.mean(scores))


def test_class_mix_trial_out_of_bag_is_efron_and_tibshirani_s_err1():
    """class_mix_trial's per-point average is bootstrap_estimates' Err^(1) on the same samples,
    and a balanced score of predictions with equal classes is the plain one."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    from cvbook.studies.bootstrap_vs_cv import (
        _balanced,
        _distribution,
        _per_point_oob,
        _sample,
        _two_class_splits,
        class_mix_trial,
    )

    X, y = _sample(_distribution("twogaussians", "d"), 30, np.random.default_rng(1))
    for stratify in (True, False):
        splits = _two_class_splits(30, y, 20, stratify, 3)
        per_point, counts = _per_point_oob(LinearDiscriminantAnalysis(), X, y, splits)
        err1 = bootstrap_estimates(LinearDiscriminantAnalysis(), X, y, splits=splits).err1
        assert np.isclose(np.nanmean(per_point), err1)
        assert counts.sum() == sum(len(test) for _, test in splits)
    y2 = np.array([-1, 1] * 5)
    v = np.arange(10.0)
    assert _balanced(v, y2) == v.mean()
    out = class_mix_trial(np.random.default_rng(0), 20, n_bootstraps=10, target_sizes=(10,))
    assert 0 < out["n_out"] < 10 and 0 <= out["cv10_bal"] <= 1
