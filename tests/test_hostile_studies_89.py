"""The studies of chapters 8 and 9 under hostile input (issue 35, items 3 to 5).

Each bad argument of a public function of :mod:`cvbook.studies.dependent_data` and
:mod:`cvbook.studies.bootstrap_vs_cv` gives an error that names it; a distribution that draws
one class or three ends the redraw with an error that names the cause instead of
looping; the tuned SVM follows scikit-learn's conventions; the study's record object
refuses what it cannot hold and names a missing key. Valid input of other kinds (a
DataFrame, a list, a ``scipy.sparse`` matrix) gives what the array gives.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GroupKFold, KFold
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor

from cvbook.learners import TunedSVC
from cvbook.records import RecordKeyError
from cvbook.studies import bootstrap_vs_cv as B
from cvbook.studies import dependent_data as D

pd = pytest.importorskip("pandas")  # DataFrame inputs; not in the minimum-versions env
rng = np.random.default_rng
X20 = np.random.default_rng(0).standard_normal((20, 2))
Y20 = np.where(np.arange(20) % 2 == 0, 1, -1)


class OneClass:
    """Draws one label only: the study's redraw can never succeed."""

    def sample(self, m, random_state=None):
        return np.zeros((m, 2)), np.ones(m, dtype=int)


class ThreeClasses:
    def sample(self, m, random_state=None):
        return np.zeros((m, 2)), np.arange(m) % 3


class RareClass:
    """Draws the class -1 with probability 1e-4: at m = 20 nearly every sample is one class."""

    def sample(self, m, random_state=None):
        r = np.random.default_rng(random_state)
        return r.standard_normal((m, 2)), np.where(r.random(m) < 1e-4, -1, 1)


def _study(**values):
    values = values or {"risk": np.array([0.1, 0.2]), "oob": np.array([0.2, 0.3])}
    return B.BootstrapStudy(values=values, m=20, learner="lda", distribution="twogaussians")


BAD = [
    # studies.dependent_data: each integer argument given as a string, None, a float, a bool
    *[
        (lambda v=v: D.preprocessing_trial(0, n_splits=v, n_fresh=50), "n_splits")
        for v in ("5", None, 2.5, True, 1)
    ],
    *[(lambda v=v: D.target_encoding_trial(0, n_splits=v), "n_splits") for v in ("5", None, 2.5)],
    *[(lambda v=v: D.time_trial(0, n_splits=v, n_fresh=50), "n_splits") for v in ("5", None, 2.5)],
    *[(lambda v=v: D.groups_trial(0, n_splits=v, n_fresh=50), "n_splits") for v in ("5", None)],
    (lambda: D.preprocessing_trial(0, n_neighbors=1000, n_fresh=50), "n_neighbors"),
    (lambda: D.time_trial(0, n_neighbors=1000, n_fresh=50), "n_neighbors"),
    (lambda: D.time_trial(0, n=10, n_splits=9, n_fresh=50), "n_splits"),
    (lambda: D.time_trial(0, n=30, gap=100, n_fresh=50), "gap"),
    (lambda: D.groups_trial(0, n_fresh=1), "n_fresh"),
    (lambda: D.time_trial(0, n_fresh=1), "n_fresh"),
    (lambda: D.cv_error("svc", X20, Y20, KFold(2)), "model"),
    (lambda: D.cv_error(object(), X20, Y20, KFold(2)), "model"),
    (lambda: D.cv_mse("svc", X20, Y20.astype(float), KFold(2)), "model"),
    (lambda: D.cv_error(KNeighborsClassifier(1), "abc", Y20, KFold(2)), "X"),
    (lambda: D.cv_error(KNeighborsClassifier(1), X20[:, 0], Y20, KFold(2)), "X"),
    (lambda: D.cv_error(KNeighborsClassifier(1), X20.astype(str), Y20, KFold(2)), "X"),
    (lambda: D.cv_error(KNeighborsClassifier(1), X20[:5], Y20, KFold(2)), "same length"),
    (lambda: D.cv_mse(KNeighborsRegressor(1), X20, Y20.astype(float), GroupKFold(2)), "groups"),
    (lambda: D.cv_error(KNeighborsClassifier(1), X20, Y20, GroupKFold(2), [0, 1]), "groups"),
    (
        lambda: D.GroupedGaussians(n_groups=2, d=1).risk_new_groups(
            KNeighborsClassifier(1).fit(X20[:, :1], Y20), rng(0), 0
        ),
        "n_fresh",
    ),
    (lambda: D.GroupedGaussians().risk_new_groups("model", rng(0), 100), "model"),
    (
        lambda: D.GroupedGaussians(n_groups=2, d=1).risk_same_groups(
            KNeighborsClassifier(1).fit(X20[:, :1], Y20), np.zeros((3, 1)), np.zeros(3), rng(0), 100
        ),
        "centres",
    ),
    (lambda: D.AR1Series().risk_future(None, rng(0), 100), "model"),
    (lambda: D.GroupedGaussians().sample("seed"), "rng"),
    (lambda: D.AR1Series().sample(-1), "rng"),
    # studies.bootstrap_vs_cv
    (lambda: B.own_size("oob", True), "m"),
    (lambda: B.own_size("cv10", 0), "m"),
    (lambda: B.own_size("cv10", "40"), "m"),
    (lambda: B.own_size("cv10", 2.5), "m"),
    (lambda: B.no_information_trial(0, 20, n_bootstraps=1), "n_bootstraps"),
    (lambda: B.no_information_trial(0, "20"), "m"),
    (lambda: B.bootstrap_study("twonorm", "1nn", 20, 2, n_bootstraps=3, n_fresh=1), "n_fresh"),
    (
        lambda: B.bootstrap_trial(
            0, B.NoInformation(), KNeighborsClassifier(1), 20, n_bootstraps=3, n_fresh=5
        ),
        "n_fresh",
    ),
    (lambda: TunedSVC().fit("abc", Y20), "X"),
    (lambda: TunedSVC().fit(X20, Y20[:5]), "same length"),
    (lambda: TunedSVC().fit(np.full((20, 2), np.nan), Y20), "X"),
    (lambda: TunedSVC().fit(X20, Y20).predict("abc"), "X"),
    (lambda: _study(risk=np.array(["a", "b"])), "values['risk']"),
    (lambda: _study(risk=np.array([object(), 1.0])), "values['risk']"),
    (lambda: _study(risk=np.array([0.1]), **{"3": np.array([1.0, 2.0])}), "one value per"),
    (lambda: B.BootstrapStudy({"risk": [0.1], 3: [1.0]}, 20, "lda", "x"), "str keys"),
    (lambda: B.BootstrapStudy({"risk": np.array([])}, 20, "lda", "x"), "at least one"),
    (lambda: B.BootstrapStudy({"risk": [0.1, 0.2]}, 20, "a b", "x"), "learner"),
    (lambda: B.BootstrapStudy({"risk": [0.1, 0.2]}, 20, "lda", ""), "distribution"),
    (lambda: B.BootstrapStudy({"risk": [0.1, 0.2]}, 5, "lda", "x"), "m"),
    (lambda: B.write_study(None, _study()), "path"),
    (lambda: B.write_study(42, _study()), "path"),
]


@pytest.mark.parametrize(("call", "fragment"), BAD)
def test_bad_argument_is_named(call, fragment):
    with pytest.raises(ValueError, match=None) as err:
        call()
    assert fragment in str(err.value), str(err.value)


@pytest.mark.parametrize("distribution", [OneClass(), ThreeClasses(), RareClass()])
def test_redraw_ends_and_names_the_cause(distribution):
    """A distribution that never draws two classes of 2 points each ends the redraw."""
    with pytest.raises(ValueError, match="distribution") as err:
        B.bootstrap_trial(0, distribution, KNeighborsClassifier(1), 20, n_bootstraps=3)
    assert "class" in str(err.value)


def test_redraw_bound_is_the_documented_one():
    calls = []

    class Counting(OneClass):
        def sample(self, m, random_state=None):
            calls.append(m)
            return super().sample(m, random_state)

    with pytest.raises(ValueError, match=f"in {B.MAX_DRAWS} draws"):
        B._sample(Counting(), 20, rng(0))
    assert len(calls) == B.MAX_DRAWS


def test_tuned_svc_follows_sklearn_conventions():
    with pytest.raises(NotFittedError):
        TunedSVC().predict(X20)
    fitted = TunedSVC().fit(pd.DataFrame(X20), list(Y20))
    np.testing.assert_array_equal(fitted.predict(X20), TunedSVC().fit(X20, Y20).predict(X20))
    one = TunedSVC().fit(X20, np.ones(20, dtype=int))  # one class: predicts it
    assert one.predict(X20[:3]).tolist() == [1, 1, 1]


def test_study_names_a_missing_key():
    st = _study()
    for call in (lambda: st["cv5"], lambda: st.bias("cv5"), lambda: st.rmse("cv5")):
        with pytest.raises(RecordKeyError, match=r"no key 'cv5'.*'oob', 'risk'"):
            call()
    with pytest.raises(KeyError):  # still a KeyError for dict-like code
        st["cv5"]
    np.testing.assert_array_equal(st["oob"], [0.2, 0.3])


@pytest.mark.parametrize(
    "convert",
    [pd.DataFrame, lambda a: a.tolist(), sp.csr_matrix, sp.csc_matrix],
    ids=["DataFrame", "list", "csr", "csc"],
)
def test_cv_error_and_cv_mse_take_other_kinds_of_x(convert):
    cv = KFold(4, shuffle=True, random_state=0)
    want = D.cv_error(KNeighborsClassifier(3), X20, Y20, cv)
    assert D.cv_error(KNeighborsClassifier(3), convert(X20), Y20, cv) == want
    want = D.cv_mse(KNeighborsRegressor(3), X20, X20[:, 0], cv)
    assert D.cv_mse(KNeighborsRegressor(3), convert(X20), X20[:, 0], cv) == want


def test_cv_error_lets_missing_values_reach_a_pipeline():
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline

    X = X20.copy()
    X[::3, 0] = np.nan
    err = D.cv_error(make_pipeline(SimpleImputer(), KNeighborsClassifier(1)), X, Y20, KFold(4))
    assert 0.0 <= err <= 1.0


def test_time_trial_checks_leave_defaults_unchanged():
    """The fold checks run before the draw and do not consume randomness."""
    a = D.time_trial(rng(3), n=60, n_fresh=200, gap=2)
    b = D.time_trial(rng(3), n=60, n_fresh=200, gap=2)
    assert a == b
    assert D.time_trial(rng(3), n=60, n_fresh=200, gap=2, n_neighbors=8)["blocked"] > 0


@pytest.mark.parametrize("scale", [1e-200, 1e-5, 1.0, 1e5, 1e200])
@pytest.mark.parametrize("shift", [0.0, 1e3, -1e8])
def test_label_correlation_holds_over_the_range_of_finite_input(scale, shift):
    X = np.random.default_rng(1).standard_normal((30, 4))
    y = np.where(np.arange(30) < 15, -1, 1)
    base = D.label_correlation(X, y)
    X2 = X * scale + shift * scale  # a shift of 1e8 keeps about 8 of the 16 digits
    np.testing.assert_allclose(D.label_correlation(X2, y), base, atol=1e-6)
    # the labels may be coded in any two numbers
    np.testing.assert_allclose(D.label_correlation(X2, (y + 1) * 1e150), base, atol=1e-6)


def test_label_correlation_of_tiny_variation_on_a_large_offset_is_not_constant():
    y = np.array([-1, -1, 1, 1])
    X = np.array([[1e300], [1e300], [1.0000001e300], [1.0000001e300]])
    assert D.label_correlation(X, y)[0] == pytest.approx(1.0)
