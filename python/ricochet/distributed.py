"""Studies on a Dask cluster: ``run_study`` maps a study's runs over ``dask.distributed`` workers.

    from dask.distributed import Client
    import ricochet, ricochet.distributed

    client = Client("tcp://scheduler:8786")          # or None: a LocalCluster on this machine
    rows = ricochet.distributed.run_study("study.json", client)
    ricochet.write_results("study.json", rows, "results.csv")   # = ricochet-cli study's file

Every worker needs the ``ricochet`` package importable (the same build on ``PYTHONPATH``); it
needs neither the study file nor its scenario file: the plan travels as its canonical document.
"""

import math

from . import plan_study

__all__ = ["run_study"]


def _run_batch(plan, runs):
    """One task: the rows of ``runs`` (a range of run indices), computed without the GIL."""
    return plan.run_runs(runs)


def _worker_threads(client):
    threads = client.nthreads()
    return max(1, sum(threads.values()))


def run_study(study, client=None, *, batch=None):
    """Run every run of ``study`` on a ``dask.distributed`` client; return the rows ``ricochet.study``
    returns (the same values, in run order).

    study
        a study file path, a study dict or a ``ricochet.StudyPlan``.
    client
        a ``dask.distributed.Client`` (any scheduler: ``Client("tcp://host:8786")``); None starts a
        ``LocalCluster`` of one single-threaded worker process per core for this call.
    batch
        runs per task (default: about eight tasks per worker thread, so a slow corner of the
        study spreads over the cluster while the scheduler's per-task cost stays small).

    The study is checked on this machine first, as ``ricochet-cli study`` checks it (ValueError
    naming the run that cannot start), then its runs are mapped over the workers in batches of
    consecutive runs. ``ricochet.write_results(study, rows, path)`` writes the results CSV, byte
    for byte the command line's.
    """
    plan = plan_study(study)
    plan.check()
    if plan.runs == 0:
        return []
    own = None
    if client is None:
        from dask.distributed import Client, LocalCluster

        own = LocalCluster(processes=True, threads_per_worker=1, dashboard_address=":0")
        client = Client(own)
    try:
        if batch is None:
            batch = max(1, math.ceil(plan.runs / (8 * _worker_threads(client))))
        elif not isinstance(batch, int) or isinstance(batch, bool) or batch < 1:
            raise ValueError(f"batch = {batch!r} is invalid: must be an integer >= 1")
        batches = [range(first, min(first + batch, plan.runs)) for first in range(0, plan.runs, batch)]
        [shared] = client.scatter([plan], broadcast=True)
        futures = client.map(_run_batch, [shared] * len(batches), batches, pure=False)
        rows = []
        for part in client.gather(futures):
            rows.extend(part)
        return rows
    finally:
        if own is not None:
            client.close()
            own.close()
