"""The chapters' experiments (floor 4 of the package plan): one module per question.

A study draws data sets, runs the methods of floor 3 on them and reports statistics of
:mod:`cvbook.stats`. The learners and distributions made only for an experiment live with
it. Nothing below this floor imports a study; the command lines of :mod:`cvbook.runs`
call them.

.. package map: begin (written by tools/package_map.py; edit the modules' docstrings, not this)

========================================  =======  =============================================
module                                    chapter  question
========================================  =======  =============================================
:mod:`cvbook.studies.split_sizes`         1        Chapter 1's studies: the test error over many
                                                   test sets, and how the split of m points into
                                                   training and test parts moves the risk and
                                                   its bound.
:mod:`cvbook.studies.learning_curve`      2        Chapter 2's learning curve: what the points
                                                   held out for testing cost the model.
:mod:`cvbook.studies.selection`           2, 3     Chapters 2-3's selection studies: what
                                                   choosing a model on a validation or K-fold
                                                   score costs, and what the winner's own score
                                                   says about its risk.
:mod:`cvbook.studies.bias_variance`       3        Chapter 3's study: bias and variance of the
                                                   K-fold estimate over many data sets, against
                                                   the risk of the model on all m points and of
                                                   the models on the parts.
:mod:`cvbook.studies.loo_pitfalls`        4        Chapter 4's studies: leave-one-out and K-fold
                                                   estimates of ridge regression over many data
                                                   sets, the failures of small samples, and the
                                                   majority vote's LOO error.
:mod:`cvbook.studies.ckcv_averaging`      5        Chapter 5's study: how fast the Monte Carlo
                                                   average over three-way splits settles.
:mod:`cvbook.studies.table1_replication`  5b       The Table 1 sweep's methods: complete K-fold
                                                   CV as Anguita et al. (2012) run it.
:mod:`cvbook.studies.bound_coverage`      6        Do the guarantees hold? Coverage and
                                                   tightness of risk estimates.
:mod:`cvbook.studies.interval_coverage`   7        Do the intervals of chapter 7 cover? Each
                                                   interval against the targets it may speak of.
:mod:`cvbook.studies.learner_comparison`  7        Which of two learners is better? Chapter 7's
                                                   comparison tests, their size and power.
:mod:`cvbook.studies.nested_cv_bias`      7        How large a bias correction does nested CV
                                                   need? Chapter 7's learning curve at its
                                                   sizes.
:mod:`cvbook.studies.dependent_data`      8        Chapter 8's experiments: grouped points,
                                                   autocorrelated series, and leakage.
:mod:`cvbook.studies.bootstrap_vs_cv`     9        Chapter 9's experiments: the bootstrap family
                                                   against cross-validation, on known truth.
:mod:`cvbook.studies.across_datasets`     10       What does a ranking over data sets control?
                                                   Suites with known differences.
:mod:`cvbook.studies.which_is_better`     10       Is learner A better than B on one data set?
                                                   Bayle et al.'s test on known truth.
========================================  =======  =============================================

.. package map: end
"""
