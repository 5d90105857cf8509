"""ricochet.study and the study plans against `ricochet-cli study`: the same rows, the same file
byte for byte once written, the same messages for bad studies."""

import json
import math
import os
import pickle

import pytest

import ricochet
from conftest import cli_error, number_text, read_csv

# 2 integrators x 3 heights x 2 random horizontal speeds = 12 runs; rk4-event has no e.discrete
# column, so some final.* cells are empty (None in a row).
STUDY = {"format": "ricochet-study", "version": 1,
         "scenario": {"system": "particle-floor"},
         "vary": [{"name": "integrator", "values": ["variational", "rk4-event"]},
                  {"name": "y0", "linspace": [0.5, 2, 3]},
                  {"name": "vx0", "normal": [0, 1], "samples": 2}],
         "seed": 7, "t_end": 3}

# A t_end axis: its column is named like the t_end reached, so a row keys it "vary.t_end".
T_END_STUDY = {"scenario": {"system": "disk-table"},
               "vary": [{"name": "t_end", "values": [1, 2.5]}, {"name": "u0", "values": [1, 2]}]}


def write_study(tmp_path, study, name="study.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"format": "ricochet-study", "version": 1, **study}))
    return path


def cli_results(cli, tmp_path, study_path, *options):
    out = tmp_path / "cli.csv"
    cli("study", study_path, "--out", out, "--quiet", *options)
    return out.read_text()


def cell(value):
    """A row value as the results CSV prints it."""
    if value is None:
        return ""
    if isinstance(value, (int, str)):
        return str(value)
    return number_text(value)


@pytest.mark.parametrize("study", [STUDY, T_END_STUDY], ids=["grid", "t_end-axis"])
def test_rows_and_file_equal_the_cli(cli, tmp_path, study):
    path = write_study(tmp_path, study)
    expected = cli_results(cli, tmp_path, path, "--jobs", "2")
    rows = ricochet.study(path, jobs=2)
    plan = ricochet.plan_study(path)
    assert len(rows) == plan.runs == expected.count("\n") - 1
    assert ricochet.results_csv(path, rows) == expected
    header, cells = read_csv(tmp_path / "cli.csv")
    axes = range(2, 2 + len(plan.axes))
    assert plan.keys == ["vary.t_end" if i in axes and k == "t_end" else k for i, k in enumerate(header)]
    for row, line in zip(rows, cells):
        assert list(row) == plan.keys
        assert [cell(v) for v in row.values()] == line
    # One thread, a dict instead of the file, the rows written: the same bytes.
    assert ricochet.results_csv(study, ricochet.study(study, jobs=1)) == expected
    ricochet.write_results(path, rows, tmp_path / "python.csv")
    assert (tmp_path / "python.csv").read_text() == expected
    assert sorted(os.listdir(tmp_path)) == ["cli.csv", "python.csv", "study.json"]  # no temporary left


def test_rows_hold_the_runs_numbers():
    rows = ricochet.study(STUDY)
    assert [r["run"] for r in rows] == list(range(12))
    assert [r["integrator"] for r in rows[:6]] == ["variational"] * 6 and rows[6]["integrator"] == "rk4-event"
    assert [r["y0"] for r in rows[:6:2]] == [0.5, 1.25, 2.0]
    assert all(r["status"] == "ok" and r["message"] == "" and r["steps"] == 300 for r in rows)
    assert all(r["impacts"] >= 1 and 0 < r["first_impact_t"] < 1 for r in rows)
    assert rows[0]["final.e.discrete"] is not None and rows[6]["final.e.discrete"] is None
    # The same numbers as one run of the same scenario.
    single = ricochet.run("particle-floor", integrator="rk4-event", y0=rows[7]["y0"], vx0=rows[7]["vx0"], t_end=3)
    assert rows[7]["impacts"] == single.summary["impacts"]
    assert rows[7]["max_abs_energy_rel_error"] == single.summary["max_abs_energy_rel_error"]
    assert rows[7]["final.q.x"] == single.trace["q.x"][-1]


def test_plans_pickle_and_run_in_pieces():
    plan = ricochet.plan_study(STUDY)
    assert plan.runs == 12 and plan.axes == ["integrator", "y0", "vx0"] and plan.source == "study"
    assert plan.describe_run(7).startswith("integrator = rk4-event, y0 = 0.5, vx0 = ")
    assert repr(plan) == "<ricochet.StudyPlan study: 12 runs of particle-floor (integrator x y0 x vx0)>"
    whole = plan.run(jobs=2)
    back = pickle.loads(pickle.dumps(plan))
    assert back.runs == 12 and back.keys == plan.keys
    pieces = back.run_runs(range(0, 5)) + back.run_runs([5, 6, 7]) + plan.run_runs(range(8, 12))
    assert plan.results_csv(pieces) == plan.results_csv(whole)
    assert ricochet.plan_study(plan) is plan


def test_rows_must_be_this_studys_in_order(tmp_path):
    plan = ricochet.plan_study(STUDY)
    rows = plan.run()
    with pytest.raises(ValueError, match=r"rows\[1\]: run 0 comes after run 1"):
        plan.results_csv([rows[1], rows[0]])
    changed = dict(rows[2], y0=0.75)
    with pytest.raises(ValueError, match=r"rows\[0\]: 'y0' is not run 2's value in this study \(integrator = variational, y0 = 1.25"):
        plan.results_csv([changed])
    incomplete = dict(rows[0])
    del incomplete["final.q.x"]
    with pytest.raises(ValueError, match=r"rows\[0\] has no 'final.q.x'"):
        plan.results_csv([incomplete])
    with pytest.raises(ValueError, match="run 12 is not in this study"):
        plan.run_runs([12])
    with pytest.raises(OSError, match="no-such-dir"):
        plan.write_results(rows, tmp_path / "no-such-dir" / "r.csv")
    assert plan.results_csv(rows[3:5]).count("\n") == 3  # a slice of the runs is a valid file


def test_bad_studies_raise_the_cli_message(cli, tmp_path):
    studies = [
        dict(STUDY, colour=1),
        dict(STUDY, vary=[{"name": "mass", "values": [1]}]),
        dict(STUDY, vary=[{"name": "y0", "linspace": [1, 2, 0]}]),
        # Each value is fine on its own; run 1's star, low and turned by 45 degrees, has a tip below
        # the floor: every run is created before the first one runs.
        {"format": "ricochet-study", "version": 1, "scenario": {"system": "star-floor"},
         "vary": [{"name": "y0", "values": [3.5, 0.6]}, {"name": "theta0", "values": [0, 0.785398]}],
         "combine": "zip", "steps": 10},
        dict(STUDY, scenario="missing-scenario.json"),
    ]
    for i, study in enumerate(studies):
        path = write_study(tmp_path, study, f"bad{i}.json")
        message = cli_error(cli("study", path, "--out", tmp_path / "out.csv", "--quiet", check=False))
        with pytest.raises(ValueError) as raised:
            ricochet.study(path)
        assert str(raised.value) == message, i
        assert not (tmp_path / "out.csv").exists()
        if i == 3:
            assert ': run 1 of 2 ("vary": y0 = 0.6, theta0 = 0.785398): initial condition outside' in message


def test_a_failed_run_is_a_row():
    rows = ricochet.study({"scenario": {"system": "particle-floor", "initial": {"vx0": 0, "vy0": 0}},
                           "vary": [{"name": "y0", "values": [1, 0]}], "steps": 50})
    assert [r["status"] for r in rows] == ["ok", "zeno"]
    assert rows[1]["message"].startswith("integrator failed at step 1") and rows[1]["steps"] == 0
    assert math.isnan(rows[1]["first_impact_t"])
