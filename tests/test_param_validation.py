"""Constraints declared once, at the public door (issue 32).

* (a) table-driven: every declared argument of every public function and class of the
  methods floor (and of floor 2) refuses one bad value with one exception family and one
  message form naming the argument; the same bad estimator, seed, ``n_jobs`` or ``alpha``
  gets the same type and the same words from every method;
* (b) each argument is checked once per public call, counted on nested paths (a
  bootstrap study, chapter 1's ``coverage_table``, K-fold with an estimator, an interval);
  a declared ``n_splits`` or ``test_size`` is checked once at the door, and its bound
  against the data once in the body, with the messages of the full checks;
* (c) nested calls of decorated functions skip their checks; a user's trial run by
  :func:`cvbook.simulation.repeat` does not;
* (d) the decorator keeps signatures and docstrings;
* a chapter's parameter check and the package say the same thing about the same value.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import sys
from collections import Counter

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier

from cvbook import book, validation
from cvbook.risk import LOSS
from cvbook.validation import (
    ArgumentTypeError,
    Interval,
    Options,
    make_constraint,
    validate_params,
)

METHODS = [
    "holdout",
    "kfold",
    "loo",
    "ckcv",
    "intervals",
    "compare",
    "dependence",
    "bootstrap",
    "paired_cv",
    "ranking",
]
FLOOR_2 = ["risk", "bounds", "stats", "simulation"]

#: Public names that take one of the common arguments but check them elsewhere, with the
#: reason. CompleteKCV and ThreeWaySplit are scikit-learn estimators/splitters: their
#: parameters are checked in ``fit``/``split``, as scikit-learn's own are.
#: ``clone_estimator(estimator, name)`` is the estimator check itself, under the name its
#: caller gives. The kernel-ridge ``alpha`` is a ridge penalty (one or many, checked with
#: the kernel matrix by ``check_kernel_problem``), not a miscoverage level.
NOT_DECLARED = {
    "ckcv.CompleteKCV",
    "ckcv.ThreeWaySplit",
    "holdout.clone_estimator",
    "loo.check_kernel_problem",
    "loo.kernel_ridge_loo_predictions",
}

COMMON = {"estimator", "estimator_a", "estimator_b", "random_state", "n_jobs", "alpha", "delta"}


def _public(modules):
    """(label, callable, declared constraints) of each public function/class."""
    out = []
    for name in modules:
        mod = importlib.import_module(f"cvbook.{name}")
        for attr in getattr(mod, "__all__", []):
            obj = getattr(mod, attr)
            if getattr(obj, "__module__", None) != mod.__name__:
                continue
            if inspect.isclass(obj) and dataclasses.is_dataclass(obj):
                continue  # a result record, built by the methods, not a door
            if inspect.isclass(obj):
                init = obj.__dict__.get("__init__")
                if init is None or not callable(init):
                    continue
                params = list(inspect.signature(obj).parameters)
                out.append(
                    (f"{name}.{attr}", obj, getattr(init, "_parameter_constraints", None), params)
                )
            elif inspect.isfunction(obj):
                params = list(inspect.signature(obj).parameters)
                out.append(
                    (f"{name}.{attr}", obj, getattr(obj, "_parameter_constraints", None), params)
                )
    return out


PUBLIC = _public(METHODS + FLOOR_2)
DECLARED = [(label, f, c, p) for label, f, c, p in PUBLIC if c]


def test_most_of_the_methods_floor_declares_its_constraints():
    methods = [row for row in PUBLIC if row[0].split(".")[0] in METHODS]
    declared = [row for row in methods if row[2]]
    assert len(declared) >= 40, [row[0] for row in declared]


@pytest.mark.parametrize("label, func, constraints, params", PUBLIC, ids=[r[0] for r in PUBLIC])
def test_common_arguments_are_declared(label, func, constraints, params):
    """A public function that takes an estimator, a seed, n_jobs, alpha or delta declares it."""
    if label in NOT_DECLARED:
        return
    taken = COMMON & set(params)
    missing = taken - set(constraints or {})
    assert not missing, f"{label} takes {sorted(missing)} but does not declare them"


# --- (a) one bad value per declared argument ----------------------------------------------


class _Fitted:
    def predict(self, X):
        return np.zeros(len(X))


class _Sampler:
    def sample(self, m, random_state=None):
        return np.zeros((m, 1)), np.zeros(m)


def _good(constraint):
    """A value the constraint accepts (for the arguments not under test)."""
    c = make_constraint(constraint)
    for candidate in (
        0,
        1,
        2,
        3,
        4,
        10,
        20,
        100,
        1000,
        0.05,
        0.5,
        1.5,
        True,
        "zero_one",
        (10,),
        [DummyClassifier()],
        DummyClassifier(),
        _Fitted(),
        _Sampler(),
        [0.1, 0.2],
        len,
    ):
        try:
            c.check(candidate, "x")
        except (ValueError, TypeError):
            continue
        return candidate
    for inner in getattr(c, "constraints", []):
        if isinstance(inner, Options):
            return inner.options[0]
        if isinstance(inner, Interval):
            return inner.low if inner.low is not None else inner.high
    raise AssertionError(f"no good value for {constraint!r}")


def _call(func, params, constraints, name, bad):
    kwargs = {p: _good(constraints[p]) for p in constraints if p != name}
    kwargs[name] = bad
    sig = inspect.signature(func)
    for p in params:
        if p in kwargs or p == "self":
            continue
        if sig.parameters[p].default is inspect.Parameter.empty and sig.parameters[p].kind not in (
            inspect.Parameter.VAR_POSITIONAL,
            inspect.Parameter.VAR_KEYWORD,
        ):
            kwargs[p] = None  # never read: the door refuses first
    with pytest.raises(ValueError) as info:  # ArgumentTypeError is a ValueError too
        func(**kwargs)
    return info.value


CASES = [
    (label, func, constraints, params, name)
    for label, func, constraints, params in DECLARED
    for name in constraints
]


def _form(name):
    return re.compile(rf"^{re.escape(name)} must .+, got .+", re.S)


@pytest.mark.parametrize(
    "label, func, constraints, params, name", CASES, ids=[f"{c[0]}-{c[4]}" for c in CASES]
)
def test_a_wrong_type_is_refused_at_the_door_in_one_form(label, func, constraints, params, name):
    bad = object()  # no constraint of the package accepts a bare object
    err = _call(func, params, constraints, name, bad)
    assert type(err) in (ArgumentTypeError, ValueError), type(err)
    assert _form(name).match(str(err)), str(err)


#: Same argument, same bad value: the same type and the same words from every method
#: that declares it with the package's rule for it.
SAME_WORDS = {
    "estimator": ("svm", "estimator"),
    "estimator_a": ("svm", "estimator"),
    "estimator_b": ("svm", "estimator"),
    "random_state": (-1, "random_state"),
    "n_jobs": (0, "n_jobs"),
    "alpha": (1.5, "alpha"),
    "delta": (1.5, None),
    "loss": ("hinge", LOSS),
    "n_bootstraps": (1, None),
    "stratify": ("yes", "boolean"),
}


@pytest.mark.parametrize("name, bad, rule", [(k, *v) for k, v in sorted(SAME_WORDS.items())])
def test_one_bad_argument_gets_one_type_and_one_message_from_every_method(name, bad, rule):
    seen = {}
    for label, func, constraints, params in DECLARED:
        if name in constraints and (rule is None or constraints[name] == rule):
            err = _call(func, params, constraints, name, bad)
            seen[label] = (type(err).__name__, str(err))
    assert len(seen) >= 2, f"{name} is declared by {list(seen)}"
    answers = set(seen.values())
    assert len(answers) == 1, f"{name}={bad!r} gets {len(answers)} answers: {seen}"
    ((_kind, message),) = answers
    assert _form(name).match(message), message


def test_the_svm_string_as_estimator_is_an_argument_type_error_everywhere():
    labels = [
        label
        for label, func, constraints, params in DECLARED
        if constraints.get("estimator") == "estimator"
    ]
    assert len(labels) >= 12, labels
    for label, func, constraints, params in DECLARED:
        if label in labels:
            err = _call(func, params, constraints, "estimator", "svm")
            assert type(err) is ArgumentTypeError, label
            assert str(err).startswith("estimator must be a scikit-learn estimator"), label


# --- (b) checked once per public call -----------------------------------------------------


#: The checks of a bound that needs the data (``n_splits <= m``, the test count against
#: ``n``), which a body makes after the declaration checked the type: counted apart.
BOUND_CHECKS = {"check_n_splits_bound", "check_test_count_bound"}


def _same(checked, value, by_value):
    if checked is value:
        return True
    if not by_value or isinstance(checked, (bool, np.bool_)):
        return False
    if not isinstance(checked, (int, float, np.integer, np.floating)):
        return False
    return bool(checked == value)


def _count_checks(call, values, *, bounds=None, by_value=False):
    """How many times each argument of ``values`` (name -> the object passed) is checked
    during ``call()``: the declared checks (``validation.check_param``) plus every call
    into ``validation`` from outside it that checks that very object (a re-check left in
    a body, under any name). A check of another object (a seed a trial draws) is not
    counted. The bound checks of :data:`BOUND_CHECKS` go to the Counter ``bounds`` (if
    given), not to the checks. ``by_value=True`` also follows the value once converted (a
    number checked again as ``int(k)``): use it with values no other argument shares."""
    counts = Counter()
    vfile = validation.__file__

    def profile(frame, event, arg):
        if event != "call" or frame.f_code.co_filename != vfile:
            return
        caller = frame.f_back
        inside = caller is not None and caller.f_code.co_filename == vfile
        if frame.f_code.co_name != "check_param" and inside:
            return
        if frame.f_code.co_name == "as_random_state":  # converts an already checked seed
            return
        local = frame.f_locals
        checked = (
            local.get("value")
            if "value" in local
            else local.get(frame.f_code.co_varnames[0])
            if frame.f_code.co_argcount
            else None
        )
        is_bound = frame.f_code.co_name in BOUND_CHECKS
        for name, value in values.items():
            if _same(checked, value, by_value):
                if not is_bound:
                    counts[name] += 1
                elif bounds is not None:
                    bounds[name] += 1

    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(old)
    return counts


def test_the_counter_sees_a_check_left_in_a_body():
    @validate_params({"k": Interval("int", 1)})
    def twice(k):
        return validation.check_int(k, "k", minimum=1)

    k = 10**6 + 1  # an object of its own
    assert _count_checks(lambda: twice(k), {"k": k}) == {"k": 2}


def test_the_counter_sees_a_full_check_after_the_declaration_and_a_bound_made_twice():
    @validate_params({"k": Interval("int", 2)})
    def full_again(k, m):
        return validation.check_n_splits(k, m, "k")

    @validate_params({"k": Interval("int", 2)})
    def converted_again(k, m):
        return validation.check_int(int(k), "k", minimum=2)

    @validate_params({"k": Interval("int", 2)})
    def bound_twice(k, m):
        validation.check_n_splits_bound(k, m, "k")
        return validation.check_n_splits_bound(k, m - 1, "k")

    @validate_params({"k": Interval("int", 2)})
    def once(k, m):
        return validation.check_n_splits_bound(k, m, "k")

    def seen(func, by_value=False):
        k = np.int64(7)  # an object of its own
        bounds = Counter()
        checks = _count_checks(lambda: func(k, 20), {"k": k}, bounds=bounds, by_value=by_value)
        return dict(checks), dict(bounds)

    assert seen(full_again) == ({"k": 2}, {})
    assert seen(converted_again) == ({"k": 1}, {})  # int(k) is another object...
    assert seen(converted_again, by_value=True) == ({"k": 2}, {})  # ...but the same value
    assert seen(bound_twice) == ({"k": 1}, {"k": 2})
    assert seen(once) == ({"k": 1}, {"k": 1})
    assert seen(once, by_value=True) == ({"k": 1}, {"k": 1})


def test_coverage_table_checks_delta_once_and_never_as_alpha():
    from cvbook.studies.split_sizes import coverage_table

    rng = np.random.default_rng(0)
    counts = {m: rng.binomial(m, 0.2, 20) for m in (20, 50, 100, 200, 500, 1000)}
    delta = np.float64(0.05)  # an object of its own, followed under any name
    seen = _count_checks(lambda: coverage_table(counts, 0.2, delta=delta), {"delta": delta})
    assert seen == {"delta": 1}, seen


def test_a_bootstrap_study_checks_n_bootstraps_once():
    from cvbook.studies.bootstrap_vs_cv import bootstrap_study

    args = {"n_bootstraps": np.int64(5), "random_state": np.int64(7), "n_jobs": np.int64(1)}
    seen = _count_checks(
        lambda: bootstrap_study("noinformation", "1nn", 20, n_repeats=2, **args), args
    )
    assert seen == {"n_bootstraps": 1, "random_state": 1, "n_jobs": 1}, seen


def test_kfold_with_an_estimator_checks_each_argument_once():
    from cvbook.kfold import kfold_risks

    X = np.random.default_rng(0).normal(size=(30, 2))
    y = np.r_[np.zeros(15), np.ones(15)]
    args = {"estimator": DummyClassifier(), "random_state": np.int64(3), "stratify": np.True_}
    seen = _count_checks(lambda: kfold_risks(X=X, y=y, n_splits=3, **args), args)
    assert seen == {"estimator": 1, "random_state": 1, "stratify": 1}, seen


def test_an_interval_checks_each_argument_once():
    from cvbook.intervals import corrected_t_interval

    X = np.random.default_rng(0).normal(size=(40, 2))
    y = np.r_[np.zeros(20), np.ones(20)]
    args = {
        "estimator": DummyClassifier(),
        "alpha": np.float64(0.1),
        "random_state": np.int64(3),
        "n_jobs": np.int64(1),
        "n_splits": np.int64(4),
    }
    seen = _count_checks(lambda: corrected_t_interval(X=X, y=y, **args), args)
    assert seen == dict.fromkeys(args, 1), seen


def _split_calls():
    """(label, argument, value, call(value)) for every method that takes ``n_splits``,
    ``outer_splits``, ``inner_splits``, an int ``cv`` or ``test_size`` and bounds it by
    the data; the value (3, 4 or 0.25) is shared by no other argument of the call."""
    from cvbook import compare, intervals, kfold

    X = np.random.default_rng(0).normal(size=(30, 2))
    y = np.r_[np.zeros(15), np.ones(15)]
    est = DummyClassifier()
    return [
        ("make_kfold", "n_splits", 3, lambda v: kfold.make_kfold(v, y=y, stratify=True)),
        ("kfold_indices", "n_splits", 3, lambda v: kfold.kfold_indices(30, v)),
        ("kfold_from_scratch", "n_splits", 3, lambda v: kfold.kfold_from_scratch(est, X, y, v)),
        ("kfold_risks", "n_splits", 3, lambda v: kfold.kfold_risks(est, X, y, n_splits=v)),
        ("kfold_risks", "cv", 3, lambda v: kfold.kfold_risks(est, X, y, cv=v)),
        ("kfold_select", "n_splits", 3, lambda v: kfold.kfold_select([est], X, y, n_splits=v)),
        ("nested_kfold", "outer_splits", 3, lambda v: kfold.nested_kfold([est], X, y, v, 4)),
        ("nested_kfold", "inner_splits", 4, lambda v: kfold.nested_kfold([est], X, y, 3, v)),
        (
            "mcnemar_holdout",
            "test_size",
            0.25,
            lambda v: compare.mcnemar_holdout(est, est, X, y, test_size=v),
        ),
        (
            "corrected_paired_ttest",
            "test_size",
            0.25,
            lambda v: compare.corrected_paired_ttest(est, est, X, y, n_splits=2, test_size=v),
        ),
        (
            "holdout_interval",
            "test_size",
            0.25,
            lambda v: intervals.holdout_interval(est, X, y, test_size=v),
        ),
        (
            "corrected_t_interval",
            "test_size",
            0.25,
            lambda v: intervals.corrected_t_interval(est, X, y, n_splits=2, test_size=v),
        ),
        (
            "conservative_z_interval",
            "test_size",
            0.25,
            lambda v: intervals.conservative_z_interval(
                est, X, y, n_splits=2, n_pairs=1, test_size=v
            ),
        ),
    ]


SPLIT_CALLS = _split_calls()


@pytest.mark.parametrize(
    "label, name, value, call", SPLIT_CALLS, ids=[f"{c[0]}-{c[1]}" for c in SPLIT_CALLS]
)
def test_a_split_size_is_checked_once_and_bounded_by_the_data_once(label, name, value, call):
    value = np.int64(value) if isinstance(value, int) else np.float64(value)  # its own object
    bounds = Counter()
    checks = _count_checks(lambda: call(value), {name: value}, bounds=bounds, by_value=True)
    assert dict(checks) == {name: 1}, (label, name, dict(checks))
    assert dict(bounds) == {name: 1}, (label, name, dict(bounds))


@pytest.mark.parametrize(
    "label, name, value, call", SPLIT_CALLS, ids=[f"{c[0]}-{c[1]}" for c in SPLIT_CALLS]
)
def test_a_split_size_of_the_wrong_type_is_refused_in_the_one_form(label, name, value, call):
    with pytest.raises(ValueError) as info:
        call("5")
    assert type(info.value) is ArgumentTypeError
    assert _form(name).match(str(info.value)), str(info.value)


_M_BOUND = "must be <= m=30, the number of points (K = m is leave-one-out), got 31"
_N_BOUND = (
    "leaves {} test points out of 30: it must leave at least 1 test point and 2 training points"
)


def _bad_bound_calls():
    from cvbook import compare, intervals, kfold

    X = np.random.default_rng(0).normal(size=(30, 2))
    y = np.r_[np.zeros(15), np.ones(15)]
    est = DummyClassifier()
    rows = [
        (lambda: kfold.make_kfold(31, m=30), f"n_splits {_M_BOUND}"),
        (lambda: kfold.kfold_indices(30, 31), f"n_splits {_M_BOUND}"),
        (lambda: kfold.kfold_from_scratch(est, X, y, 31), f"n_splits {_M_BOUND}"),
        (lambda: kfold.kfold_risks(est, X, y, n_splits=31), f"n_splits {_M_BOUND}"),
        (lambda: kfold.kfold_risks(est, X, y, cv=31), f"cv {_M_BOUND}"),
        (lambda: kfold.kfold_select([est], X, y, n_splits=31), f"n_splits {_M_BOUND}"),
        (lambda: kfold.nested_kfold([est], X, y, 31), f"outer_splits {_M_BOUND}"),
        (
            lambda: kfold.nested_kfold([est], X, y, 3, 21),
            "inner_splits must be <= m=20, the number of points (K = m is leave-one-out), got 21",
        ),
    ]
    for test_size, n_test in ((29, 29), (0.99, 30)):
        message = "test_size " + _N_BOUND.format(n_test)
        rows += [
            (lambda t=test_size: compare.mcnemar_holdout(est, est, X, y, test_size=t), message),
            (
                lambda t=test_size: compare.corrected_paired_ttest(est, est, X, y, test_size=t),
                message,
            ),
            (lambda t=test_size: intervals.holdout_interval(est, X, y, test_size=t), message),
            (lambda t=test_size: intervals.corrected_t_interval(est, X, y, test_size=t), message),
            (
                lambda t=test_size: intervals.conservative_z_interval(est, X, y, test_size=t),
                message,
            ),
        ]
    return rows


BAD_BOUNDS = _bad_bound_calls()


@pytest.mark.parametrize("call, message", BAD_BOUNDS, ids=[m[:40] for _, m in BAD_BOUNDS])
def test_a_bound_that_needs_the_data_keeps_its_message_and_type(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert type(info.value) is ValueError
    assert str(info.value) == message


def _study_split_calls():
    """(label, {argument: value}, call(**values)) for the studies that take split counts
    and run the methods on them, many times per call: each count must be checked once at
    the study's door and bounded by the data once, however many data sets or folds the
    study runs. The values (3, 4) are shared by no other argument of the call."""
    from cvbook.datasets import TwoGaussians
    from cvbook.studies import bias_variance, selection

    X, y = TwoGaussians().sample(30, random_state=0)
    grid = {"alphas": [0.1, 1.0], "gammas": [0.5]}
    tiny = {"n_repeats": 2, "random_state": 0, "n_jobs": 1}
    return [
        (
            "grid_nested_kfold",
            {"outer_splits": 3, "inner_splits": 4},
            lambda **v: selection.grid_nested_kfold(X, y, **grid, **v, random_state=0),
        ),
        (
            "selection_study",
            {"outer_splits": 3, "inner_splits": 4},
            lambda **v: selection.selection_study(TwoGaussians(), 30, **grid, **v, **tiny),
        ),
        (
            "kfold_bias_variance",
            {"ks[0]": 3, "ks[1]": 4},
            lambda **v: bias_variance.kfold_bias_variance(
                DummyClassifier(),
                TwoGaussians(),
                20,
                [v["ks[0]"], v["ks[1]"]],
                n_test=500,
                stratify=True,
                part_truths=True,
                **tiny,
            ),
        ),
    ]


STUDY_SPLIT_CALLS = _study_split_calls()


@pytest.mark.parametrize(
    "label, args, call", STUDY_SPLIT_CALLS, ids=[c[0] for c in STUDY_SPLIT_CALLS]
)
def test_a_studys_split_counts_are_checked_once_and_bounded_once(label, args, call):
    values = {name: np.int64(v) for name, v in args.items()}  # objects of their own
    bounds = Counter()
    checks = _count_checks(lambda: call(**values), values, bounds=bounds, by_value=True)
    assert dict(checks) == dict.fromkeys(values, 1), (label, dict(checks))
    assert dict(bounds) == dict.fromkeys(values, 1), (label, dict(bounds))


def test_the_list_ks_is_checked_once():
    from cvbook.datasets import TwoGaussians
    from cvbook.studies.bias_variance import kfold_bias_variance

    ks = [2, 5]
    seen = _count_checks(
        lambda: kfold_bias_variance(
            DummyClassifier(), TwoGaussians(), 20, ks, n_repeats=2, n_test=500, n_jobs=1
        ),
        {"ks": ks},
    )
    assert seen == {"ks": 1}, seen


def _grid_values():
    """A grid of values of their own (never shared with another argument or a default):
    the lists and each of their entries, to be counted."""
    alphas, gammas = [np.float64(0.37), np.float64(2.9)], [np.float64(0.61)]
    named = {"alphas": alphas, "gammas": gammas}
    named |= {f"{k}[{i}]": v for k, lst in list(named.items()) for i, v in enumerate(lst)}
    return alphas, gammas, named


def test_the_counter_sees_a_list_entry_checked_again_in_a_body():
    def entries(values, name):
        for v in values:
            validation.check_float(v, name, minimum=0, exclusive=True)

    @validate_params({"alphas": entries})
    def again(alphas):
        return [validation.check_float(v, "alphas", minimum=0) for v in alphas]

    alphas, _, named = _grid_values()
    seen = _count_checks(lambda: again(alphas), {k: named[k] for k in named if "alphas" in k})
    assert seen == {"alphas": 1, "alphas[0]": 2, "alphas[1]": 2}, seen


@pytest.mark.parametrize("n_repeats", [2, 4])
def test_the_selection_study_checks_its_grid_once_however_many_repetitions(n_repeats):
    """alphas and gammas are declared at the door: each list and each entry is checked
    once per call (before: 2 + n_repeats times, once more in every repetition's grid)."""
    from cvbook.datasets import TwoGaussians
    from cvbook.studies import selection

    alphas, gammas, named = _grid_values()
    X, y = TwoGaussians().sample(30, random_state=0)
    calls = {
        "selection_study": lambda: selection.selection_study(
            TwoGaussians(),
            30,
            alphas,
            gammas,
            n_repeats=n_repeats,
            outer_splits=3,
            inner_splits=3,
            n_test=500,
            random_state=0,
            n_jobs=1,
        ),
        "grid_nested_kfold": lambda: selection.grid_nested_kfold(
            X, y, alphas, gammas, 3, 3, random_state=0
        ),
    }
    for label, call in calls.items():
        seen = _count_checks(call, named)
        assert seen == dict.fromkeys(named, 1), (label, dict(seen))


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda s: s.grid_nested_kfold(*_xy30(), [1.0], [1.0], outer_splits="5"),
            ArgumentTypeError,
            "outer_splits must be an integer, got '5'",
        ),
        (
            lambda s: s.grid_nested_kfold(*_xy30(), [1.0], [1.0], inner_splits=1),
            ValueError,
            "inner_splits must be >= 2, got 1",
        ),
        (
            lambda s: s.grid_nested_kfold(*_xy30(), [1.0], [1.0], outer_splits=31),
            ValueError,
            f"outer_splits {_M_BOUND}",
        ),
        (
            lambda s: s.grid_nested_kfold(*_xy30(), [1.0], [1.0], 3, 21),
            ValueError,
            "inner_splits must be <= m=20, the number of points (K = m is leave-one-out), got 21",
        ),
        (
            lambda s: s.selection_study(None, 30, [1.0], [1.0], inner_splits=2.0),
            ArgumentTypeError,
            "inner_splits must be an integer, got 2.0",
        ),
        (
            lambda s: s.selection_study(None, 30, [1.0], [1.0], outer_splits=31),
            ValueError,
            f"outer_splits {_M_BOUND}",
        ),
    ],
)
def test_a_studys_bad_split_count_is_refused_in_the_one_form(call, error, message):
    from cvbook.studies import selection

    with pytest.raises(ValueError) as info:
        call(selection)
    assert type(info.value) is error
    assert str(info.value) == message


def _xy30():
    return np.random.default_rng(0).normal(size=(30, 2)), np.r_[np.zeros(15), np.ones(15)]


@pytest.mark.parametrize(
    "ks, error, message",
    [
        ("25", ArgumentTypeError, "ks must be a list of integers K in [2, m], got '25'"),
        ([], ValueError, "ks must hold at least one value of K, got none"),
        ([2, "5"], ArgumentTypeError, "ks must be an integer, got '5'"),
        ([2, 1], ValueError, "ks must be >= 2, got 1"),
        ([2, 21], ValueError, f"ks {_M_BOUND.replace('30', '20').replace('31', '21')}"),
    ],
)
def test_a_bad_ks_is_refused_in_the_one_form(ks, error, message):
    from cvbook.datasets import TwoGaussians
    from cvbook.studies.bias_variance import kfold_bias_variance

    with pytest.raises(ValueError) as info:
        kfold_bias_variance(DummyClassifier(), TwoGaussians(), 20, ks, n_repeats=2)
    assert type(info.value) is error
    assert str(info.value) == message


# --- (c) nested calls skip ------------------------------------------------------------------


@validate_params({"k": Interval("int", 2)})
def _inner(k):
    return k


@validate_params({"m": Interval("int", 0)})
def _outer(m):
    return _inner(m)  # m = 0 or 1 is not a legal k: the nested check would refuse it


def test_a_nested_call_skips_its_checks_and_a_direct_one_does_not():
    assert _outer(1) == 1
    with pytest.raises(ValueError, match=r"^k must be >= 2, got 1$"):
        _inner(1)
    with pytest.raises(ValueError, match=r"^m must be >= 0, got -1$"):
        _outer(-1)


def test_the_skip_ends_with_the_outer_call_even_when_it_fails():
    with pytest.raises(ValueError):
        _outer("x")
    with pytest.raises(ValueError):
        _inner(1)


def test_a_users_trial_in_repeat_is_checked_but_a_studys_own_is_not():
    from cvbook.simulation import repeat

    with pytest.raises(ValueError, match="k must be >= 2"):
        repeat(lambda rng: _inner(1), 2, random_state=0, n_jobs=1)

    @validate_params({"n": Interval("int", 1)})
    def study(n):
        return repeat(lambda rng: _inner(1), n, random_state=0, n_jobs=1)

    assert study(2) == [1, 1]


# --- (d) signatures and docstrings -----------------------------------------------------------


@pytest.mark.parametrize("label, func, constraints, params", DECLARED, ids=[r[0] for r in DECLARED])
def test_the_decorator_keeps_signature_and_docstring(label, func, constraints, params):
    target = func.__dict__["__init__"] if inspect.isclass(func) else func
    wrapped = target.__wrapped__
    assert inspect.signature(target) == inspect.signature(wrapped)
    assert target.__doc__ == wrapped.__doc__
    assert target.__name__ == wrapped.__name__
    assert set(constraints) <= set(inspect.signature(wrapped).parameters)


def test_a_declaration_naming_no_parameter_is_refused():
    with pytest.raises(ValueError, match="has no parameter"):

        @validate_params({"nope": Interval("int")})
        def f(k):
            return k


# --- the chapters say the same thing -------------------------------------------------------


@pytest.mark.parametrize(
    "chapter, package",
    [
        (
            lambda: book.check_int_parameter(1, "n_bootstraps", low=2, high=10_000),
            lambda: Interval("int", 2, 10_000).check(1, "n_bootstraps"),
        ),
        (
            lambda: book.check_int_parameter(2.0, "n_bootstraps", low=2),
            lambda: Interval("int", 2).check(2.0, "n_bootstraps"),
        ),
        (
            lambda: book.check_float_parameter(1.5, "delta", 0, 1, open_low=True, open_high=True),
            lambda: Interval("real", 0, 1, closed="neither").check(1.5, "delta"),
        ),
        (
            lambda: book.check_seed(-1, "random_state"),
            lambda: validation.check_int(-1, "random_state", 0, 2**32 - 1),
        ),
    ],
)
def test_a_chapter_and_the_package_say_the_same_thing(chapter, package):
    with pytest.raises(ValueError) as ours:
        chapter()
    with pytest.raises(ValueError) as theirs:
        package()
    assert isinstance(ours.value, TypeError) == isinstance(theirs.value, TypeError)
    text = re.sub(r"^parameter '(\w+)'", r"\1", str(ours.value))
    assert text == str(theirs.value)
