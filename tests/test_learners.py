"""The one learner registry (issue 32): one name per estimator configuration, the studies'
views of it, the legacy names of the committed records, and the command lines' refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sklearn.base import clone

from cvbook.learners import LEARNERS, LEGACY_NAMES, Learner, current_name, get_learner
from cvbook.records import read_table
from cvbook.runs import bootstrap as run_bootstrap
from cvbook.runs import coverage as run_coverage
from cvbook.studies import bootstrap_vs_cv, bound_coverage, interval_coverage, selection
from cvbook.validation import ArgumentTypeError

ROOT = Path(__file__).resolve().parents[1]

#: Each study's view of the registry, as the brief of issue 32 fixes it.
VIEWS = {
    "interval_coverage": (interval_coverage.INTERVAL_LEARNERS, ("lda", "logreg", "svm")),
    "bootstrap_vs_cv": (bootstrap_vs_cv.BOOTSTRAP_LEARNERS, ("lda", "1nn", "tree", "svm_tuned")),
    "bound_coverage": (bound_coverage.COVERAGE_LEARNERS, ("default", "svm")),
}


@pytest.mark.parametrize("name", list(LEARNERS))
def test_every_entry_builds_a_fresh_estimator_and_its_grid(name):
    entry = get_learner(name)
    assert isinstance(entry, Learner) and entry.name == name and entry.description
    a, b = entry.make(), entry.make()
    assert a is not b and a.get_params() == b.get_params()
    assert clone(a).get_params() == a.get_params()
    grid = entry.param_grid()
    assert set(grid) <= set(a.get_params())  # the grid tunes the estimator's own parameters
    grid.setdefault("x", []).append(1)  # a copy: the registry is not changed through it
    assert "x" not in entry.param_grid()


def test_one_name_per_configuration():
    configs = {}
    for name, entry in LEARNERS.items():
        est = entry.make()
        key = (type(est).__name__, repr(sorted(est.get_params().items())), repr(entry.grid))
        assert key not in configs, f"{name} and {configs[key]} are one configuration"
        configs[key] = name


@pytest.mark.parametrize(
    ("value", "error"), [(5, ArgumentTypeError), (None, ArgumentTypeError), ("SVM", ValueError)]
)
def test_a_bad_name_gets_the_one_message_form(value, error):
    with pytest.raises(error) as info:
        get_learner(value, argument="learner")
    assert str(info.value) == f"learner must be one of {list(LEARNERS)}, got {value!r}"
    with pytest.raises(error, match=r"^--learners must be one of \['lda', '1nn'\], got"):
        get_learner(value, among=("lda", "1nn"), argument="--learners")


def test_get_learner_declares_its_other_arguments():
    with pytest.raises(ArgumentTypeError, match="among must be a sequence of learner names"):
        get_learner("lda", among="lda")
    with pytest.raises(ArgumentTypeError, match="argument must be a non-empty str"):
        get_learner("lda", argument=3)
    with pytest.raises(ValueError, match=r"^legacy must be one of \['coverage', 'bootstrap'\]"):
        get_learner("svc", among=("svm",), legacy="intervals")
    with pytest.raises(ArgumentTypeError, match=r"^legacy must be one of"):
        get_learner("svm", legacy=5)
    assert {"among", "argument", "legacy"} <= set(get_learner._parameter_constraints)


def test_a_studys_own_rule_is_refused_as_such():
    """Chapter 6's "default" is in its view but is not a registry entry: the message says
    so, rather than "must be one of [..., 'default', ...], got 'default'"."""
    with pytest.raises(ValueError, match="'default' is a study's own rule"):
        get_learner("default", among=("default", "svm"), argument="learner")


def test_a_grid_cannot_be_changed_for_the_rest_of_the_process():
    with pytest.raises(TypeError):
        LEARNERS["svm"].grid["C"] = (1000.0,)
    assert get_learner("svm").param_grid() == {"C": [1.0, 10.0]}
    assert Learner("x", dict, "a test entry", {"a": [1, 2]}).grid["a"] == (1, 2)


@pytest.mark.parametrize("study", list(VIEWS))
def test_each_study_accepts_exactly_its_names(study):
    view, expected = VIEWS[study]
    assert tuple(view) == expected
    for name in LEARNERS:
        if name in view:
            assert get_learner(name, view, "learner").name == name
        else:
            with pytest.raises(ValueError, match=re.escape(f"learner must be one of {list(view)}")):
                get_learner(name, view, "learner")


def test_the_studies_build_their_learners_from_the_registry():
    # chapter 6's rule and its "svm"; chapter 9's study; chapter 7's trial
    for dist, name in bound_coverage.DEFAULT_LEARNERS.items():
        est, grid = bound_coverage.default_learner(dist)
        assert est.get_params() == get_learner(name).make().get_params()
        assert grid == get_learner(name).param_grid()
    with pytest.raises(ValueError, match=r"learner must be one of \['default', 'svm'\], got 'lda'"):
        bound_coverage.default_learner("twonorm", "lda")
    with pytest.raises(ArgumentTypeError, match="learner must be one of"):
        bound_coverage.default_learner("twonorm", 1)
    st = bootstrap_vs_cv.bootstrap_study("noinformation", "tree", 20, 2, n_bootstraps=2)
    assert st.learner == "tree"
    with pytest.raises(ValueError, match="got 'svm'"):
        bootstrap_vs_cv.bootstrap_study("noinformation", "svm", 20, 2)


def test_chapter_6_svm_is_chapter_7_svm():
    ch6, grid = bound_coverage.default_learner("ringnorm", "svm")
    ch7 = get_learner("svm", interval_coverage.INTERVAL_LEARNERS, "learner").make()
    assert ch6.get_params() == ch7.get_params()
    assert repr(ch6) == "SVC()"  # what the committed runs recorded as their estimator
    assert grid == {"C": [1.0, 10.0]}
    # the selection study's "svm" family is the same SVM, with C (and gamma) set
    fixed = selection.candidate_grid("svm").fixed
    assert fixed.get_params() == ch7.get_params()


def test_chapter_9_svm_tuned_is_another_learner():
    tuned = get_learner("svm_tuned").make()
    assert type(tuned).__name__ == "TunedSVC"
    assert tuned.get_params() != get_learner("svm").make().get_params()


def test_legacy_table_renames_per_kind():
    assert dict(LEGACY_NAMES["coverage"]) == {"svc": "svm"}
    assert dict(LEGACY_NAMES["bootstrap"]) == {"svc": "svm_tuned"}
    for kind, table in LEGACY_NAMES.items():
        for old, new in table.items():
            assert old not in LEARNERS and new in LEARNERS
            assert current_name(old, kind) == new
        assert current_name("lda", kind) == "lda"
    with pytest.raises(ValueError, match="kind must be one of"):
        current_name("svc", "table1")
    with pytest.raises(ArgumentTypeError, match="name must be a str"):
        current_name(None, "coverage")


def test_legacy_table_maps_the_committed_bootstrap_records():
    folder = ROOT / "results" / "bootstrap"
    paths = sorted(folder.glob("*.csv.gz"))
    written = {read_table(p).meta["learner"] for p in paths}
    assert "svc" in written  # the file keeps what the run wrote
    read = {bootstrap_vs_cv.read_study(p).learner for p in paths}
    assert read == {current_name(w, "bootstrap") for w in written}
    assert read <= set(bootstrap_vs_cv.BOOTSTRAP_LEARNERS)
    assert "svm_tuned" in read


def test_legacy_table_maps_the_committed_coverage_records():
    folder = ROOT / "results" / "coverage"
    for dist in ("twonorm", "ringnorm"):
        assert (folder / f"{dist}_svc.records.csv.gz").exists()
        assert not (folder / f"{dist}_svm.records.csv.gz").exists()
        records, prov = run_coverage.read_results(folder / f"{dist}_svm")
        assert prov["parameters"]["learner"] == "svc"  # provenance says what was run
        learner = current_name(prov["parameters"]["learner"], "coverage")
        assert learner == "svm" and learner in bound_coverage.COVERAGE_LEARNERS
        est, grid = bound_coverage.default_learner(dist, learner)
        assert prov["estimator"] == repr(est) and prov["param_grid"] == grid
        assert len(records["repeat"]) > 0
    with pytest.raises(FileNotFoundError):
        run_coverage.read_results(folder / "twonorm_svm_tuned")


def test_coverage_command_refuses_an_old_name_with_the_new_one(tmp_path, capsys):
    with pytest.raises(SystemExit):
        run_coverage.main(["--out", str(tmp_path / "x"), "--learner", "svc", "--no-progress"])
    err = capsys.readouterr().err
    assert "--learner must be one of ['default', 'svm'], got 'svc' (now called 'svm')" in err
    assert not list(tmp_path.iterdir())  # nothing written
    with pytest.raises(SystemExit):
        run_coverage.main(["--out", str(tmp_path / "x"), "--learner", "lda", "--no-progress"])
    assert "--learner must be one of ['default', 'svm'], got 'lda'" in capsys.readouterr().err


def test_bootstrap_command_refuses_an_old_name_with_the_new_one(tmp_path, capsys):
    with pytest.raises(SystemExit):
        run_bootstrap.main(["--out", str(tmp_path / "x"), "--learners", "lda", "svc"])
    err = capsys.readouterr().err
    assert (
        "--learners must be one of ['lda', '1nn', 'tree', 'svm_tuned'], got 'svc' "
        "(now called 'svm_tuned')" in err
    )
    assert not list(tmp_path.iterdir())


def test_the_command_lines_accept_the_new_names():
    args = run_coverage._parser().parse_args(["--out", "x", "--learner", "svm"])
    run_coverage._check_options(args)  # no error
    args = run_bootstrap._parser().parse_args(["--out", "x", "--learners", "svm_tuned", "tree"])
    assert args.learners == ["svm_tuned", "tree"]


def _two_gaussians(m, seed):
    from cvbook.datasets import TwoGaussians

    return TwoGaussians(dim=3).sample(m, random_state=seed)


def test_one_class_fallback_predicts_the_one_class():
    import numpy as np
    from sklearn.svm import SVC

    from cvbook.learners import OneClassFallback

    X, _ = _two_gaussians(10, 0)
    y = np.full(10, 1)
    with pytest.raises(ValueError, match="greater than one"):
        SVC().fit(X, y)  # what the wrapper answers for
    model = OneClassFallback(SVC()).fit(X, y)
    X_new, _ = _two_gaussians(7, 1)
    assert np.array_equal(model.predict(X_new), np.full(7, 1))
    assert model.one_class_ and model.estimator_ is None and list(model.classes_) == [1]
    copy = clone(model)
    assert not hasattr(copy, "classes_") and copy.get_params()["estimator__C"] == 1.0
    with pytest.raises(ArgumentTypeError, match="estimator must be a scikit-learn estimator"):
        OneClassFallback("svm").fit(X, y)


def test_one_class_fallback_is_the_estimator_on_two_classes():
    import numpy as np
    from sklearn.svm import SVC

    from cvbook.learners import OneClassFallback

    X, y = _two_gaussians(30, 2)
    X_new, _ = _two_gaussians(200, 3)
    model = OneClassFallback(SVC(C=3.0, gamma=0.5)).fit(X, y)
    assert not model.one_class_ and np.array_equal(model.classes_, np.unique(y))
    assert np.array_equal(model.predict(X_new), SVC(C=3.0, gamma=0.5).fit(X, y).predict(X_new))
