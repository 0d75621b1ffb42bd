"""cvbook: the package behind the book *Estimating the risk of a learned model*.

The package is built in floors; a module imports only from its own floor or below,
never from above, not even inside a function (``tests/test_package_plan.py`` checks it).
The table is the package map that ``tools/package_map.py`` writes from the modules' paths
and docstrings:

.. package map: begin (written by tools/package_map.py; edit the modules' docstrings, not this)

=====  ========================================  ==========  ===================================
floor  module                                    chapter     what it holds
=====  ========================================  ==========  ===================================
1      :mod:`cvbook.book`                        –           The chapters' scaffolding: numbers
                                                             for the prose, parameter checks,
                                                             committed records.
1      :mod:`cvbook.claims`                      –           Claims: every comparison a chapter
                                                             states, as a named object with a
                                                             target and a verdict.
1      :mod:`cvbook.provenance`                  –           Results of long runs: written
                                                             atomically, and stamped with where
                                                             they came from.
1      :mod:`cvbook.records`                     –           Records: what a long run leaves on
                                                             disk, checked on resume (floor 1 of
                                                             the package plan).
1      :mod:`cvbook.stored_values`               –           The prose's numbers stored in the
                                                             notebook, so that it shows them
                                                             before any kernel runs.
1      :mod:`cvbook.validation`                  –           Argument checks shared by every
                                                             module.
2      :mod:`cvbook.bounds`                      1, 5, 6, 7  Exact binomial (Clopper--Pearson)
                                                             bounds for a 0-1 error rate.
2      :mod:`cvbook.risk`                        1           Losses, empirical risk and the true
                                                             risk of a fitted model.
2      :mod:`cvbook.datasets`                    –           Data for the book.
2      :mod:`cvbook.datasets.raetsch`            5, 5b       G. Rätsch's 13 binary benchmarks,
                                                             as Anguita et al. (2012) use them.
2      :mod:`cvbook.datasets.synthetic`          –           Synthetic distributions with a
                                                             known risk.
2      :mod:`cvbook.plotting`                    –           One style for every figure of the
                                                             book.
2      :mod:`cvbook.simulation`                  –           Repeated experiments: the same
                                                             procedure on many fresh data sets.
2      :mod:`cvbook.stats`                       –           The statistics every study reports,
                                                             each defined once.
3      :mod:`cvbook.holdout`                     2           Hold-out: one split into a training
                                                             and a validation set.
3      :mod:`cvbook.kfold`                       3           K-fold cross-validation.
3      :mod:`cvbook.loo`                         4           Leave-one-out cross-validation.
3      :mod:`cvbook.ckcv`                        5           Complete K-fold cross-validation
                                                             with k as a hyperparameter.
3      :mod:`cvbook._ckcv_libsvm`                5           The libsvm fast path of complete
                                                             K-fold CV (chapter 5): private
                                                             machinery.
3      :mod:`cvbook.learners`                    6, 7, 9     The learners of chapters 6, 7 and
                                                             9: one registry, one name per
                                                             estimator configuration.
3      :mod:`cvbook.compare`                     7           Is learner A really better than
                                                             learner B? Tests on the same data.
3      :mod:`cvbook.intervals`                   7           How sure is a CV score? Confidence
                                                             intervals for the risk.
3      :mod:`cvbook.dependence`                  8           Dependent points: splitters and
                                                             sample-size arithmetic for grouped
                                                             and ordered data.
3      :mod:`cvbook.bootstrap`                   9           The bootstrap estimates of the
                                                             risk: out-of-bag, .632 and .632+.
3      :mod:`cvbook.paired_cv`                   10          Is learner A better than B on this
                                                             data set? Bayle et al.'s cross-
                                                             validation test.
3      :mod:`cvbook.ranking`                     –           Which learner is better across data
                                                             sets? Rank tests and a Bayesian
                                                             signed-rank test (ch. 10).
4      :mod:`cvbook.studies`                     –           The chapters' experiments (floor 4
                                                             of the package plan): one module
                                                             per question.
4      :mod:`cvbook.studies.split_sizes`         1           Chapter 1's studies: the test error
                                                             over many test sets, and how the
                                                             split of m points into training and
                                                             test parts moves the risk and its
                                                             bound.
4      :mod:`cvbook.studies.learning_curve`      2           Chapter 2's learning curve: what
                                                             the points held out for testing
                                                             cost the model.
4      :mod:`cvbook.studies.selection`           2, 3        Chapters 2-3's selection studies:
                                                             what choosing a model on a
                                                             validation or K-fold score costs,
                                                             and what the winner's own score
                                                             says about its risk.
4      :mod:`cvbook.studies.bias_variance`       3           Chapter 3's study: bias and
                                                             variance of the K-fold estimate
                                                             over many data sets, against the
                                                             risk of the model on all m points
                                                             and of the models on the parts.
4      :mod:`cvbook.studies.loo_pitfalls`        4           Chapter 4's studies: leave-one-out
                                                             and K-fold estimates of ridge
                                                             regression over many data sets, the
                                                             failures of small samples, and the
                                                             majority vote's LOO error.
4      :mod:`cvbook.studies.ckcv_averaging`      5           Chapter 5's study: how fast the
                                                             Monte Carlo average over three-way
                                                             splits settles.
4      :mod:`cvbook.studies.table1_replication`  5b          The Table 1 sweep's methods:
                                                             complete K-fold CV as Anguita et
                                                             al. (2012) run it.
4      :mod:`cvbook.studies.bound_coverage`      6           Do the guarantees hold? Coverage
                                                             and tightness of risk estimates.
4      :mod:`cvbook.studies.interval_coverage`   7           Do the intervals of chapter 7
                                                             cover? Each interval against the
                                                             targets it may speak of.
4      :mod:`cvbook.studies.learner_comparison`  7           Which of two learners is better?
                                                             Chapter 7's comparison tests, their
                                                             size and power.
4      :mod:`cvbook.studies.nested_cv_bias`      7           How large a bias correction does
                                                             nested CV need? Chapter 7's
                                                             learning curve at its sizes.
4      :mod:`cvbook.studies.dependent_data`      8           Chapter 8's experiments: grouped
                                                             points, autocorrelated series, and
                                                             leakage.
4      :mod:`cvbook.studies.bootstrap_vs_cv`     9           Chapter 9's experiments: the
                                                             bootstrap family against cross-
                                                             validation, on known truth.
4      :mod:`cvbook.studies.across_datasets`     10          What does a ranking over data sets
                                                             control? Suites with known
                                                             differences.
4      :mod:`cvbook.studies.which_is_better`     10          Is learner A better than B on one
                                                             data set? Bayle et al.'s test on
                                                             known truth.
5      :mod:`cvbook.runs`                        –           Drivers of the long runs: command
                                                             lines, records on disk, resume.
5      :mod:`cvbook.runs.coverage`               6           The long coverage runs behind
                                                             chapter 6: command line, records on
                                                             disk, resume.
5      :mod:`cvbook.runs.intervals`              7           ``python -m
                                                             cvbook.runs.intervals``: the long
                                                             run of chapter 7's studies.
5      :mod:`cvbook.runs.which_is_better`        7, 10       The long run behind chapter 10,
                                                             section 1: Bayle et al.'s test
                                                             beside chapter 7's tests.
5      :mod:`cvbook.runs.dependence`             8           ``python -m
                                                             cvbook.runs.dependence``: the long
                                                             run behind chapter 8's time
                                                             section.
5      :mod:`cvbook.runs.bootstrap`              9           The long run behind chapter 9: the
                                                             bootstrap family against cross-
                                                             validation.
5      :mod:`cvbook.runs.cli`                    –           What the drivers' command lines
                                                             share: the parser, its common
                                                             options and their checks.
5      :mod:`cvbook.runs.table1`                 –           The Table 1 sweep on disk: command
                                                             line, one record per run, resume,
                                                             summary files.
=====  ========================================  ==========  ===================================

.. package map: end

Where new code goes: a method a reader runs on their own data goes to floor 3; an
experiment of a chapter (a ``*_trial``, ``*_study``, a learner or distribution made for
it) goes to :mod:`cvbook.studies`; a statistic the studies report goes to
:mod:`cvbook.stats`; a check of an argument goes to :mod:`cvbook.validation`.
"""

__version__ = "0.1.0"
