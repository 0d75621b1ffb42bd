"""CompleteKCV on a dask.distributed cluster gives the serial results, exactly."""

from __future__ import annotations

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")
from joblib import parallel_config  # noqa: E402

from cvbook.ckcv import CompleteKCV  # noqa: E402


def test_dask_backend_matches_serial():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(80, 3))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=80) > 0, 1, -1)
    kwargs = dict(
        param_grid={"C": [1.0, 10.0], "gamma": [0.1, 1.0]},
        k_values=[3, 5],
        n_splits=3,
        random_state=5,
    )
    serial = CompleteKCV(n_jobs=1, **kwargs).fit(X, y)

    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        with parallel_config(backend="dask"):
            remote = CompleteKCV(n_jobs=-1, **kwargs).fit(X, y)
        # The work really ran on the cluster's workers.
        n_tasks = sum(client.run(lambda dask_worker: dask_worker.state.executed_count).values())
    assert n_tasks > 0

    for key, val in serial.cv_results_.items():
        if key == "params":
            assert remote.cv_results_[key] == val
        else:  # NaN in the EE columns of rows without an EE phase, on both sides
            np.testing.assert_array_equal(remote.cv_results_[key], val, err_msg=key)
    for k in (3, 5):
        assert remote.bound_at(k) == serial.bound_at(k)
        assert remote.member_error(X, y, k=k) == serial.member_error(X, y, k=k)
    assert remote.best_params_ == serial.best_params_
    assert remote.k_ == serial.k_
    assert remote.bound_ == serial.bound_
    assert remote.member_error(X, y) == serial.member_error(X, y)
