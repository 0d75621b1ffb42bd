"""The chapters' experiments (floor 4 of the package plan): one module per question.

A study draws data sets, runs the methods of floor 3 on them and reports statistics of
:mod:`cvbook.stats`. The learners and distributions made only for an experiment live with
it. Nothing below this floor imports a study; the command lines of :mod:`cvbook.runs`
call them.

====================================  =======  =================================================
module                                chapter  question
====================================  =======  =================================================
:mod:`cvbook.studies.split_sizes`     1        how test error and its bound move with the split
:mod:`cvbook.studies.selection`       2, 3     what selecting on a validation/K-fold score costs
:mod:`cvbook.studies.learning_curve`  2        what holding points out costs the model
:mod:`cvbook.studies.bias_variance`   3        bias and variance of the K-fold estimate
:mod:`cvbook.studies.loo`             4        LOO's small-sample failures and ridge estimates
:mod:`cvbook.studies.ckcv`            5        the 1/sqrt(l_MC) rate of the split average
:mod:`cvbook.studies.table1`          5b       Table 1 of the C-KCV paper, rerun
:mod:`cvbook.studies.coverage`        6        coverage of the bounds and estimates
:mod:`cvbook.studies.intervals`       7        coverage of the intervals, power of the tests
:mod:`cvbook.studies.dependence`      8        groups, time and leakage against known risks
:mod:`cvbook.studies.bootstrap`       9        the bootstrap family against CV, on known truth
====================================  =======  =================================================
"""
