"""cvbook: the package behind the book *Estimating the risk of a learned model*.

One module per idea, named as the chapters name them:

========================  ===============================================
module                    chapter
========================  ===============================================
:mod:`cvbook.risk`        1 -- losses and empirical risk
:mod:`cvbook.bounds`      1, 5 -- Clopper--Pearson bounds
:mod:`cvbook.datasets`    all -- synthetic distributions, Rätsch benchmarks
:mod:`cvbook.simulation`  all -- repeated experiments, seeded per task
:mod:`cvbook.holdout`     2 -- hold-out
:mod:`cvbook.kfold`       3 -- K-fold cross-validation
:mod:`cvbook.loo`         4 -- leave-one-out
:mod:`cvbook.ckcv`        5 -- complete K-fold cross-validation
:mod:`cvbook.coverage`    6 -- do the guarantees hold?
:mod:`cvbook.plotting`    all -- one style for every figure
========================  ===============================================
"""

__version__ = "0.1.0"
