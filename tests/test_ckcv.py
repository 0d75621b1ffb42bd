"""Tests of cvbook.ckcv: the splitter, Algorithm 1, selection, F*, bad input."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.svm import SVC

from cvbook.bounds import clopper_pearson_upper
from cvbook.ckcv import CompleteKCV, ThreeWaySplit


def make_data(n=90, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + X[:, 1] ** 2 - 0.5 + 0.5 * rng.normal(size=n) > 0, 1, -1)
    return X, y


GRID = {"C": [0.5, 5.0], "gamma": [0.2, 1.0]}


def assert_same_results(a, b):
    """Every entry of cv_results_ equal (NaN where there was no EE phase), same selection."""
    assert a.cv_results_.keys() == b.cv_results_.keys()
    for key, val in b.cv_results_.items():
        if key == "params":
            assert a.cv_results_[key] == val
        else:
            np.testing.assert_array_equal(a.cv_results_[key], val, err_msg=key)
    assert a.bound_ == b.bound_ and a.best_params_ == b.best_params_ and a.k_ == b.k_


@pytest.fixture(scope="module")
def data():
    return make_data()


@pytest.fixture(scope="module")
def fitted(data):
    X, y = data
    return CompleteKCV(param_grid=GRID, k_values=[3, 5, 10], n_splits=4,
                       random_state=7, n_jobs=1).fit(X, y)


# ----------------------------------------------------------------- splitter
@pytest.mark.parametrize("n,k", [(10, 3), (31, 4), (100, 10), (7, 7)])
def test_split_sizes_partition(n, k):
    splits = list(ThreeWaySplit(k, n_splits=3, random_state=1).split(np.zeros((n, 1))))
    assert len(splits) == 3
    for tr, ms, ee in splits:
        assert len(ms) == len(ee) == n // k
        assert len(tr) == n - 2 * (n // k)
        assert np.array_equal(np.sort(np.concatenate([tr, ms, ee])), np.arange(n))


def test_split_seeded_by_seed_k_and_index():
    X = np.zeros((50, 1))
    a = list(ThreeWaySplit(5, 3, random_state=0).split(X))
    b = list(ThreeWaySplit(5, 6, random_state=0).split(X))
    c = list(ThreeWaySplit(5, 3, random_state=1).split(X))
    d = list(ThreeWaySplit(4, 3, random_state=0).split(X))
    for i in range(3):  # split i does not depend on how many splits are asked for
        assert all(np.array_equal(u, v) for u, v in zip(a[i], b[i]))
    assert not all(np.array_equal(u[1], v[1]) for u, v in zip(a, c))
    assert not all(np.array_equal(u[1][:10], v[1][:10]) for u, v in zip(a, d))
    assert not np.array_equal(a[0][1], a[1][1])


def test_split_bad_input():
    with pytest.raises(ValueError, match="n_splits"):
        list(ThreeWaySplit(3, 0).split(np.zeros((10, 1))))
    with pytest.raises(ValueError, match="k"):
        list(ThreeWaySplit(2, 3).split(np.zeros((10, 1))))
    with pytest.raises(ValueError, match="k must be <="):
        list(ThreeWaySplit(11, 3).split(np.zeros((10, 1))))


# ------------------------------------------------------- Algorithm 1 written out
def algorithm1(X, y, grid_points, k_values, n_splits, delta, random_state):
    """Algorithm 1 as the paper prints it, with SVC(kernel="rbf") refit on raw features."""
    rows = []
    for k in sorted(k_values):
        splits = list(ThreeWaySplit(k, n_splits, random_state).split(X))
        for params in grid_points:
            ms_err, ee_err = [], []
            for tr, ms, ee in splits:
                f_tr = SVC(kernel="rbf", **params).fit(X[tr], y[tr])
                ms_err.append(int(np.sum(f_tr.predict(X[ms]) != y[ms])))
                trms = np.sort(np.concatenate([tr, ms]))
                f_ms = SVC(kernel="rbf", **params).fit(X[trms], y[trms])
                ee_err.append(int(np.sum(f_ms.predict(X[ee]) != y[ee])))
            m = len(X) // k
            rows.append(dict(k=k, params=params, ms=ms_err, ee=ee_err,
                             L_MS=float(np.mean(clopper_pearson_upper(ms_err, m, delta))),
                             L_EE=float(np.mean(clopper_pearson_upper(ee_err, m, delta)))))
    return rows


@pytest.mark.parametrize("ee_rows", ["selected", "all"])
def test_matches_algorithm1_written_out(data, fitted, ee_rows):
    X, y = data
    points = [{"C": c, "gamma": g} for c in GRID["C"] for g in GRID["gamma"]]
    ref = algorithm1(X, y, points, [3, 5, 10], 4, 0.05, 7)
    if ee_rows == "all":
        fitted = clone(fitted).set_params(ee_rows="all").fit(X, y)
    res = fitted.cv_results_
    assert len(ref) == len(res["k"])
    # The EE phase ran for the row selected at each k (every row with "all").
    per_k_best = {k: min((j for j in range(len(ref)) if ref[j]["k"] == k),
                         key=lambda j: ref[j]["L_MS"]) for k in (3, 5, 10)}
    expected_ee = (set(range(len(ref))) if ee_rows == "all" else set(per_k_best.values()))
    assert set(np.flatnonzero(res["has_ee"])) == expected_ee
    for row, r in enumerate(ref):
        assert res["k"][row] == r["k"] and res["params"][row] == r["params"]
        assert [res[f"split{i}_ms_errors"][row] for i in range(4)] == r["ms"]
        assert res["mean_L_MS"][row] == pytest.approx(r["L_MS"], abs=1e-15)
        if row in expected_ee:
            assert [res[f"split{i}_ee_errors"][row] for i in range(4)] == r["ee"]
            assert res["mean_L_EE"][row] == pytest.approx(r["L_EE"], abs=1e-15)
        else:  # no EE phase: NaN, never a number that was not computed
            for key in ("mean_L_EE", "std_L_EE", "mean_ee_error", "split0_ee_errors",
                        "split3_L_EE"):
                assert np.isnan(res[key][row]), key
    for k, j in per_k_best.items():
        assert fitted.bound_at(k) == pytest.approx(ref[j]["L_EE"], abs=1e-15)
    best = min(range(len(ref)), key=lambda j: ref[j]["L_MS"])  # first minimum: the tie rule
    assert fitted.best_index_ == best
    assert fitted.k_ == ref[best]["k"] and fitted.best_params_ == ref[best]["params"]
    assert fitted.bound_ == pytest.approx(ref[best]["L_EE"], abs=1e-15)
    assert fitted.best_score_ == pytest.approx(ref[best]["L_MS"], abs=1e-15)


def test_generic_estimator_path_matches_written_out(data):
    X, y = data
    model = CompleteKCV(LogisticRegression(), param_grid={"C": [0.1, 1.0]}, k_values=[4],
                        n_splits=3, random_state=3).fit(X, y)
    for i, (tr, ms, ee) in enumerate(ThreeWaySplit(4, 3, 3).split(X)):
        for row, c in enumerate([0.1, 1.0]):
            f = LogisticRegression(C=c).fit(X[tr], y[tr])
            assert model.cv_results_[f"split{i}_ms_errors"][row] == np.sum(f.predict(X[ms]) != y[ms])
    assert len(model.estimators_) == 3
    assert all(isinstance(e, LogisticRegression) for e in model.estimators_)


def test_gamma_scale_resolved_on_pool(data):
    X, y = data
    model = CompleteKCV(param_grid={"C": [1.0]}, k_values=[4], n_splits=2, random_state=0).fit(X, y)
    assert model.best_params_["gamma"] == pytest.approx(1 / (X.shape[1] * X.var()))


# -------------------------------------------------------------- invariances
def test_results_do_not_depend_on_n_jobs(data, fitted):
    X, y = data
    par = clone(fitted).set_params(n_jobs=2).fit(X, y)
    assert_same_results(par, fitted)


def test_common_random_numbers_and_grid_order(data, fitted):
    X, y = data
    sub = CompleteKCV(param_grid={"C": [5.0], "gamma": [1.0, 0.2]}, k_values=[10, 5],
                      n_splits=4, random_state=7, ee_rows="all").fit(X, y)
    big = clone(fitted).set_params(ee_rows="all").fit(X, y).cv_results_
    for row in range(len(sub.cv_results_["k"])):
        k, params = sub.cv_results_["k"][row], sub.cv_results_["params"][row]
        j = next(j for j in range(len(big["k"])) if big["k"][j] == k and big["params"][j] == params)
        for key in ("split0_ms_errors", "split3_ee_errors", "mean_L_MS", "mean_L_EE"):
            assert sub.cv_results_[key][row] == big[key][j]


def test_selection_restricted_to_k(fitted):
    res = fitted.cv_results_
    for k in (3, 5, 10):
        row = fitted.selected_index(k)
        assert res["k"][row] == k
        assert res["mean_L_MS"][row] == res["mean_L_MS"][res["k"] == k].min()
        assert fitted.bound_at(k) == res["mean_L_EE"][row]
    with pytest.raises(ValueError, match="k must be None or one of"):
        fitted.selected_index(4)


def test_k_fixed_is_the_conventional_procedure(data, fitted):
    X, y = data
    five = CompleteKCV(param_grid=GRID, k_values=[5], n_splits=4, random_state=7).fit(X, y)
    assert five.k_ == 5
    assert five.bound_ == fitted.bound_at(5)
    assert five.member_error(X, y) == fitted.member_error(X, y, k=5)


def test_ties_go_to_smaller_k():
    # Two far-apart clusters: every row makes no MS error. Zero errors on the larger
    # MS part of k = 3 give the smaller bound, so k = 3 wins; within k = 3 the three C
    # values tie exactly, and the first grid point wins.
    X = np.r_[np.zeros((20, 1)) - 3, np.zeros((20, 1)) + 3] + np.linspace(0, 0.1, 40)[:, None]
    y = np.r_[-np.ones(20), np.ones(20)].astype(int)
    model = CompleteKCV(param_grid={"C": [1.0, 10.0, 100.0], "gamma": [0.5]}, k_values=[4, 3],
                        n_splits=3, random_state=0).fit(X, y)
    assert np.all(model.cv_results_["mean_ms_error"] == 0)
    assert model.k_ == 3 and model.best_params_["C"] == 1.0 and model.best_index_ == 0


# ------------------------------------------------------------ F* and predict
def test_members_and_member_error(data, fitted):
    X, y = data
    assert len(fitted.estimators_) == 4
    errs = [np.mean(m.predict(X) != y) for m in fitted.estimators_]
    assert fitted.member_error(X, y) == pytest.approx(np.mean(errs), abs=1e-12)
    # The members are the f*_MS of the search: their EE errors are the recorded ones.
    res, row = fitted.cv_results_, fitted.best_index_
    for i, (tr, ms, ee) in enumerate(ThreeWaySplit(fitted.k_, 4, 7).split(X)):
        m = fitted.estimators_[i]
        assert np.sum(m.predict(X[ee]) != y[ee]) == res[f"split{i}_ee_errors"][row]


def test_predict_draws_one_member_per_call_seeded(data, fitted):
    X, y = data
    a = clone(fitted).fit(X, y)
    b = clone(fitted).fit(X, y)
    preds_a = [a.predict(X) for _ in range(6)]
    preds_b = [b.predict(X) for _ in range(6)]
    assert all(np.array_equal(u, v) for u, v in zip(preds_a, preds_b))
    members = [m.predict(X) for m in a.estimators_]
    for p in preds_a:
        assert set(np.unique(p)) <= {-1, 1}
        assert any(np.array_equal(p, m) for m in members)
    assert 0 <= a.score(X, y) <= 1


def test_sklearn_api(fitted):
    params = fitted.get_params()
    assert params["k_values"] == [3, 5, 10] and params["delta"] == 0.05
    c = clone(fitted)
    assert not hasattr(c, "cv_results_")
    assert c.set_params(delta=0.1).delta == 0.1
    again = pickle.loads(pickle.dumps(fitted))
    assert again.bound_ == fitted.bound_


def test_default_estimator_is_rbf_svc(data):
    X, y = data
    model = CompleteKCV(k_values=[3], n_splits=2, random_state=0).fit(X, y)
    assert model.estimator is None
    assert sorted(set(model.cv_results_["param_C"])) == [0.1, 1.0, 10.0, 100.0, 1000.0]


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs,name", [
    ({"n_splits": 0}, "n_splits"),
    ({"n_splits": 2.5}, "n_splits"),
    ({"delta": 0.0}, "delta"),
    ({"delta": 1.0}, "delta"),
    ({"delta": -0.2}, "delta"),
    ({"k_values": [2, 5]}, "k_values"),
    ({"k_values": [200]}, "k_values"),
    ({"k_values": []}, "k_values"),
    ({"random_state": -1}, "random_state"),
])
def test_bad_parameters_name_themselves(data, kwargs, name):
    X, y = data
    with pytest.raises(ValueError, match=name):
        CompleteKCV(param_grid={"C": [1.0]}, **{"k_values": [3], "n_splits": 2, **kwargs}).fit(X, y)


def test_non_binary_labels(data):
    X, y = data
    y3 = y.copy()
    y3[:5] = 2
    with pytest.raises(ValueError, match="y must be binary"):
        CompleteKCV(k_values=[3], n_splits=2).fit(X, y3)
    with pytest.raises(ValueError, match="y must hold two classes"):
        CompleteKCV(k_values=[3], n_splits=2).fit(X, np.ones(len(y)))


def test_one_class_training_part_is_refused():
    # 2 positives among 12: with k = 3, 8 of 12 go to MS and EE, so some
    # training part holds negatives only.
    X = np.arange(12, dtype=float)[:, None]
    y = np.r_[np.ones(2), -np.ones(10)].astype(int)
    with pytest.raises(ValueError, match="k_values: with k = 3.*one class"):
        CompleteKCV(param_grid={"C": [1.0], "gamma": [1.0]}, k_values=[3], n_splits=30,
                    random_state=0).fit(X, y)


def test_bad_X():
    X, y = make_data(30)
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="X must be finite"):
        CompleteKCV(k_values=[3], n_splits=2).fit(X, y)
    with pytest.raises(ValueError, match="same length"):
        CompleteKCV(k_values=[3], n_splits=2).fit(make_data(30)[0], y[:-1])
