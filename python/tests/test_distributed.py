"""ricochet.distributed.run_study on a dask.distributed LocalCluster of two worker processes: the
rows of ricochet.study, and once written, `ricochet-cli study`'s file byte for byte."""

import json

import pytest
from dask.distributed import Client, LocalCluster, get_task_stream

import ricochet
import ricochet.distributed

# 20 runs: 4 time steps x 5 random attitude perturbations of the rounded cube.
STUDY = {"format": "ricochet-study", "version": 1,
         "scenario": {"system": "cube-plane"},
         "vary": [{"name": "h", "values": [0.02, 0.01, 0.005, 0.0025]},
                  {"name": "ry0", "normal": [0, 1e-8], "samples": 5}],
         "seed": 3, "t_end": 10}


@pytest.fixture(scope="module")
def client():
    """One cluster for the module: starting one takes seconds."""
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as c:
        yield c


def test_cluster_study_equals_the_cli_file(cli, tmp_path, client):
    path = tmp_path / "cube.json"
    path.write_text(json.dumps(STUDY))
    cli("study", path, "--out", tmp_path / "cli.csv", "--quiet")
    with get_task_stream(client) as tasks:
        rows = ricochet.distributed.run_study(path, client, batch=2)
    assert len(rows) == 20 and [r["run"] for r in rows] == list(range(20))
    ricochet.write_results(path, rows, tmp_path / "dask.csv")
    assert (tmp_path / "dask.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    # Ten batches of two runs, computed by both worker processes.
    batches = [t for t in tasks.data if t["key"].startswith("_run_batch")]
    assert len(batches) == 10
    assert len({t["worker"] for t in batches}) == 2
    assert sum(r["impacts"] for r in rows) > 20 and {r["status"] for r in rows} == {"ok"}


def test_cluster_rows_are_the_threads_rows(client):
    plan = ricochet.plan_study(STUDY)
    rows = ricochet.distributed.run_study(plan, client)  # default batches
    assert plan.results_csv(rows) == plan.results_csv(ricochet.study(plan, jobs=2))


def test_bad_studies_fail_before_any_task(client, monkeypatch):
    # Count what is handed to the cluster (a task stream would also show the tail of the tasks
    # of the tests before this one, which the shared cluster may still be finishing).
    handed = []
    for name in ("submit", "map", "compute", "scatter"):
        original = getattr(client, name)
        monkeypatch.setattr(client, name,
                            lambda *a, _o=original, _n=name, **k: handed.append(_n) or _o(*a, **k))
    bad = dict(STUDY, vary=[{"name": "h", "values": [-1]}])
    with pytest.raises(ValueError, match=r"^study: .*\"vary\[0\]\.values\".*h"):
        ricochet.distributed.run_study(bad, client)
    assert handed == []
    with pytest.raises(ValueError, match="batch = 0 is invalid"):
        ricochet.distributed.run_study(STUDY, client, batch=0)


def test_without_a_client_a_local_cluster_runs_it():
    small = dict(STUDY, vary=[{"name": "h", "values": [0.02, 0.01]}])
    rows = ricochet.distributed.run_study(small)
    assert ricochet.results_csv(small, rows) == ricochet.results_csv(small, ricochet.study(small))
