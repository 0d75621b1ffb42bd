"""cvbook: the package behind the book *Estimating the risk of a learned model*.

One module per idea, named as the chapters name them:

=============================  ==========================================================
module                         chapter
=============================  ==========================================================
:mod:`cvbook.risk`             1 -- losses, empirical risk, the risk of a fitted model
:mod:`cvbook.bounds`           1, 5, 6, 7 -- Clopper--Pearson bounds
:mod:`cvbook.datasets`         all -- synthetic distributions, Rätsch benchmarks
:mod:`cvbook.simulation`       all -- repeated experiments, seeded per task, resumable
:mod:`cvbook.holdout`          2 -- hold-out
:mod:`cvbook.kfold`            3 -- K-fold cross-validation
:mod:`cvbook.loo`              4 -- leave-one-out
:mod:`cvbook.ckcv`             5 -- complete K-fold cross-validation
:mod:`cvbook.sweep`            5b -- Table 1 of Anguita et al., one fit at a time
:mod:`cvbook.coverage`         6 -- do the guarantees hold?
:mod:`cvbook.intervals`        7 -- confidence intervals for the risk
:mod:`cvbook.compare`          7 -- comparing two learners
:mod:`cvbook.plotting`         all -- one style for every figure
:mod:`cvbook.book`             all -- published numbers, parameter checks, committed records
:mod:`cvbook.provenance`       long runs -- atomic writes, git commit, package versions
:mod:`cvbook.runs.table1`      5b -- the Table 1 sweep: command line, records, resume
:mod:`cvbook.runs.coverage`    6 -- the coverage study: command line, records, resume
:mod:`cvbook.runs.intervals`   7 -- the interval study: command line, records, resume
=============================  ==========================================================

Argument checks shared by every module live in ``cvbook.validation``.
"""

__version__ = "0.1.0"
