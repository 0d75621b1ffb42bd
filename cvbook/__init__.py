"""cvbook: the package behind the book *Estimating the risk of a learned model*.

The package is built in floors; a module imports only from its own floor or below,
never from above, not even inside a function (``tests/test_package_plan.py`` holds the
floor of every module and checks it):

=====  ================================  ===================================================
floor  module                            what it holds (chapter)
=====  ================================  ===================================================
1      :mod:`cvbook.validation`          every argument check (all)
1      :mod:`cvbook.book`                published numbers, parameter checks, records (all)
1      :mod:`cvbook.stored_values`       the prose's numbers stored in a notebook; papermill engine
1      :mod:`cvbook.claims`              every comparison a chapter states, with its verdict (all)
1      :mod:`cvbook.provenance`          atomic writes, git commit, package versions
2      :mod:`cvbook.risk`                losses (one ``Loss`` type), empirical and true risk (1)
2      :mod:`cvbook.bounds`              Clopper--Pearson bounds (1, 5, 6, 7)
2      :mod:`cvbook.datasets`            synthetic distributions, Rätsch benchmarks (all)
2      :mod:`cvbook.stats`               paired difference, mean ± SE, correlation, variances
2      :mod:`cvbook.simulation`          repeated experiments, seeded per task, resumable
2      :mod:`cvbook.plotting`            one style for every figure (all)
3      :mod:`cvbook.holdout`             hold-out (2)
3      :mod:`cvbook.kfold`               K-fold cross-validation (3)
3      :mod:`cvbook.loo`                 leave-one-out (4)
3      :mod:`cvbook.ckcv`                complete K-fold cross-validation (5)
3      :mod:`cvbook.intervals`           confidence intervals for the risk (7)
3      :mod:`cvbook.compare`             comparing two learners (7)
3      :mod:`cvbook.dependence`          grouped and ordered data: splitters, design effects (8)
3      :mod:`cvbook.bootstrap`           out-of-bag, .632 and .632+ estimates (9)
4      :mod:`cvbook.studies.split_sizes`     test error and the split of m points (1)
4      :mod:`cvbook.studies.selection`       what selection costs; the candidate grids (2, 3)
4      :mod:`cvbook.studies.learning_curve`  what the held-out points cost (2)
4      :mod:`cvbook.studies.bias_variance`   bias and variance of K-fold (3)
4      :mod:`cvbook.studies.loo`             LOO's small-sample failures, ridge estimates (4)
4      :mod:`cvbook.studies.table1`          Table 1 of Anguita et al., one fit at a time (5b)
4      :mod:`cvbook.studies.coverage`        do the guarantees hold? (6)
4      :mod:`cvbook.studies.intervals`       do the intervals cover; power of the tests (7)
4      :mod:`cvbook.studies.dependence`      groups, time and leakage against known risks (8)
4      :mod:`cvbook.studies.bootstrap`       the bootstrap family against CV, on known truth (9)
5      :mod:`cvbook.runs.table1`         the Table 1 sweep: command line, records, resume
5      :mod:`cvbook.runs.coverage`       the coverage study: command line, records, resume
5      :mod:`cvbook.runs.intervals`      the interval study: command line, records, resume
5      :mod:`cvbook.runs.bootstrap`      the bootstrap study: command line, records, resume
=====  ================================  ===================================================

Where new code goes: a method a reader runs on their own data goes to floor 3; an
experiment of a chapter (a ``*_trial``, ``*_study``, a learner or distribution made for
it) goes to :mod:`cvbook.studies`; a statistic the studies report goes to
:mod:`cvbook.stats`; a check of an argument goes to :mod:`cvbook.validation`.
"""

__version__ = "0.1.0"
