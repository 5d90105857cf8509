"""ricochet.run, ricochet.Simulation, scenarios and systems against ricochet-cli: the same numbers
bit for bit, the same messages for bad input."""

import json
import pickle

import numpy as np
import pytest

import ricochet
from conftest import PRESETS, cli_error, csv_columns, load_json, number_text, read_csv, same_bits

STEPS = 1501  # not a multiple of EVERY: the last state is recorded on its own
EVERY = 4
TIMINGS = {"wall_seconds", "steps_per_second"}


def all_runs():
    return [(s, i) for s in ricochet.systems() for i in ricochet.describe(s)["integrators"]]


def test_systems_are_the_cli_list(cli):
    ids = [line.split("\t")[0] for line in cli("list").stdout.splitlines()]
    assert ricochet.systems() == ids
    assert len(ids) >= 10 and "cube-plane" in ids


@pytest.mark.parametrize("system", ricochet.systems())
def test_describe_is_the_cli_json(cli, system):
    described = ricochet.describe(system)
    assert described == json.loads(cli("describe", system, "--json").stdout)
    assert described["id"] == system and described["parameters"] and described["integrators"]


def expect_same_run(run, csv, impacts_csv, summary_json):
    """A Run holds what the CLI's three files hold: the same doubles, the same text once printed."""
    header, rows = read_csv(csv)
    assert list(run.trace) == header
    columns = csv_columns(csv)
    for name, text in columns.items():
        values = run.trace[name]
        assert values.dtype == np.float64 and values.ndim == 1 and len(values) == len(rows), name
        assert same_bits(values, [float(x) for x in text]), name
    # Printed back as the CLI prints (integers for step and impacts, %.17g otherwise): the file.
    printed = [",".join(str(int(x)) if name in ("step", "impacts") else number_text(x)
                        for name, x in zip(header, row))
               for row in zip(*(run.trace[name] for name in header))]
    assert "\n".join([",".join(header)] + printed) + "\n" == csv.read_text()

    header, rows = read_csv(impacts_csv)
    assert list(run.impacts) == header
    for name, text in csv_columns(impacts_csv).items():
        if name == "constraint":
            assert list(run.impacts[name]) == text
        else:
            assert same_bits(run.impacts[name], [float(x) for x in text]), name

    summary = load_json(summary_json)
    assert set(run.summary) == set(summary)
    assert {k: v for k, v in run.summary.items() if k not in TIMINGS} == \
        {k: v for k, v in summary.items() if k not in TIMINGS}


@pytest.mark.parametrize("system,integrator", all_runs())
def test_trace_equals_the_cli_csv_bitwise(cli, tmp_path, system, integrator):
    files = [tmp_path / n for n in ("trace.csv", "impacts.csv", "summary.json")]
    cli("run", system, "--integrator", integrator, "--steps", STEPS, "--every", EVERY, "--csv", files[0],
        "--impacts-csv", files[1], "--summary-json", files[2])
    run = ricochet.run(system, integrator=integrator, steps=STEPS, every=EVERY)
    expect_same_run(run, *files)
    assert run.scenario["system"] == system and run.scenario["integrator"]["name"] == integrator


def test_every_system_has_impacts_in_the_comparison():
    # The bitwise test means something for the impacts table only where impacts happen.
    for system in ricochet.systems():
        assert ricochet.run(system, steps=STEPS, every=STEPS).summary["impacts"] > 0, system


def test_scenario_file_dict_and_overrides_run_as_the_cli(cli, tmp_path):
    preset = PRESETS / "004-star-floor.json"
    files = [tmp_path / n for n in ("trace.csv", "impacts.csv", "summary.json")]
    cli("run", preset, "--set", "m=2", "--set", "theta0=0.3", "--h", "0.0025", "--t-end", "4", "--csv", files[0],
        "--impacts-csv", files[1], "--summary-json", files[2])
    expect_same_run(ricochet.run(preset, m=2, theta0=0.3, h=0.0025, t_end=4), *files)
    expect_same_run(ricochet.run(str(preset), m=2, theta0=0.3, h=0.0025, t_end=4), *files)
    as_dict = load_json(preset)
    as_dict["parameters"]["m"] = 2
    as_dict["initial"]["theta0"] = 0.3
    del as_dict["format"], as_dict["version"]
    expect_same_run(ricochet.run(as_dict, h=0.0025, t_end=4), *files)


def test_a_mesh_body_runs_as_the_cli(cli, tmp_path):
    # The module reads mesh files itself (core's reader, no VTK): a scenario whose body is an OBJ
    # file runs to the CLI's numbers bit for bit.
    corners = [(x, y, z) for z in (-0.3, 0.7) for y in (-0.5, 0.5) for x in (-0.25, 0.75)]
    faces = ["1 3 4 2", "5 6 8 7", "1 2 6 5", "3 7 8 4", "1 5 7 3", "2 4 8 6"]
    (tmp_path / "die.obj").write_text("".join("v %.17g %.17g %.17g\n" % c for c in corners) +
                                      "".join(f"f {f}\n" for f in faces))
    cli("scenario", "rigid-body", "--body", tmp_path / "die.obj", "--out", tmp_path / "die.json")
    files = [tmp_path / n for n in ("trace.csv", "impacts.csv", "summary.json")]
    cli("run", tmp_path / "die.json", "--steps", STEPS, "--every", EVERY, "--csv", files[0],
        "--impacts-csv", files[1], "--summary-json", files[2])
    run = ricochet.run(tmp_path / "die.json", steps=STEPS, every=EVERY)
    assert run.summary["impacts"] > 0
    expect_same_run(run, *files)


def test_a_failed_run_is_returned_like_the_cli_files(cli, tmp_path):
    # At rest on the floor: elastic impacts cannot hold it, the first step stops with "zeno".
    files = [tmp_path / n for n in ("trace.csv", "impacts.csv", "summary.json")]
    p = cli("run", "particle-floor", "--set", "y0=0", "--set", "vx0=0", "--set", "vy0=0", "--steps", 10,
            "--csv", files[0], "--impacts-csv", files[1], "--summary-json", files[2])
    assert p.returncode == 3
    run = ricochet.run("particle-floor", y0=0, vx0=0, vy0=0, steps=10)
    assert not run.ok and run.summary["status"] == "zeno"
    assert run.summary["message"] in p.stderr
    expect_same_run(run, *files)


def test_restitution_settles_as_the_cli_says(cli, tmp_path):
    # The bouncing ball with e = 0.9 (docs/restitution.md, R1): the summary says when it settled
    # and what was dissipated, the trace has e.dissipated; the elastic run has neither.
    preset = PRESETS / "rst-particle-floor-bouncing-ball.json"
    files = [tmp_path / n for n in ("trace.csv", "impacts.csv", "summary.json")]
    p = cli("run", preset, "--csv", files[0], "--impacts-csv", files[1], "--summary-json", files[2])
    assert "settled at t = 8.481643453 s" in p.stdout
    run = ricochet.run(preset)
    expect_same_run(run, *files)
    assert run.ok and abs(run.summary["settled_t"] - 8.4816434530831) < 1e-9
    assert abs(run.summary["energy_dissipated"] - 9.81) < 1e-12
    assert abs(run.trace["energy"][-1] + run.trace["e.dissipated"][-1] - 9.81) < 1e-12
    elastic = ricochet.run(preset, restitution=1, steps=100)
    assert elastic.summary["settled_t"] is None and elastic.summary["energy_dissipated"] == 0
    assert "e.dissipated" not in elastic.trace


def test_scenario_is_the_cli_scenario(cli):
    text = cli("scenario", "cube-plane", "--set", "m=2", "--h", "0.005", "--integrator",
               "variational-bisection").stdout
    assert ricochet.scenario("cube-plane", m=2, h=0.005, integrator="variational-bisection") == json.loads(text)


BAD_INPUT = [
    (["nosuch"], ("nosuch",), {}),
    (["particle-floor", "--set", "m=-1"], ("particle-floor",), {"m": -1}),
    (["particle-floor", "--set", "m=nan"], ("particle-floor",), {"m": float("nan")}),
    (["particle-floor", "--set", "mass=1"], ("particle-floor",), {"mass": 1}),
    (["particle-floor", "--set", "y0=-0.5"], ("particle-floor",), {"y0": -0.5}),
    (["particle-floor", "--h", "-0.01"], ("particle-floor",), {"h": -0.01}),
    (["particle-floor", "--integrator", "euler"], ("particle-floor",), {"integrator": "euler"}),
    (["particle-floor", "--tolerance", "2"], ("particle-floor",), {"tolerance": 2}),
    (["particle-floor", "--t-end", "1e300", "--h", "1e-300"], ("particle-floor",), {"t_end": 1e300, "h": 1e-300}),
    (["missing.json"], ("missing.json",), {}),
]


@pytest.mark.parametrize("args,target,overrides", BAD_INPUT)
def test_bad_input_raises_the_cli_message(cli, args, target, overrides):
    message = cli_error(cli("run", *args, check=False))
    with pytest.raises(ValueError) as raised:
        ricochet.run(*target, **overrides)
    assert str(raised.value) == message
    if "1e300" not in args:  # a scenario that is itself fine refuses only to run that long
        with pytest.raises(ValueError) as raised:
            ricochet.Simulation(*target, **overrides)
        assert str(raised.value) == message


def test_unknown_system_in_describe(cli):
    with pytest.raises(ValueError) as raised:
        ricochet.describe("nosuch")
    assert str(raised.value) == cli_error(cli("describe", "nosuch", check=False))


@pytest.mark.parametrize("text,key", [
    ('{"format": "ricochet-scenario", "version": 1, "system": "particle-floor", "parameters": {"m": -1}}',
     '"parameters.m" = -1 is out of range: must be > 0 kg'),
    ('{"format": "ricochet-scenario", "version": 1, "system": "particle-floor", "colour": 1}', "colour"),
    ('{"format": "ricochet-scenario", "version": 1, "system": "particle-floor", "t_end": "long"}', "t_end"),
    ('{"format": "ricochet-scenario", "version": 1, "system": "particle-floor", "parameters": {"m": 1,}}', None),
])
def test_bad_scenario_files_and_dicts(cli, tmp_path, text, key):
    path = tmp_path / "bad.json"
    path.write_text(text)
    message = cli_error(cli("run", path, check=False))
    assert message.startswith(f"{path}: line 1, column ")
    with pytest.raises(ValueError) as raised:
        ricochet.run(path)
    assert str(raised.value) == message
    if key is None:
        return  # not JSON: no dict can say it
    # The same document as a dict: the same words after the position, which a dict has not.
    with pytest.raises(ValueError) as raised:
        ricochet.run(json.loads(text))
    assert str(raised.value) == "scenario: " + message.split(": ", 2)[2]
    assert key in str(raised.value)


def test_python_only_argument_errors():
    with pytest.raises(ValueError, match="give either t_end or steps, not both"):
        ricochet.run("particle-floor", steps=10, t_end=1)
    with pytest.raises(ValueError, match=r"every = 0 is invalid: must be an integer >= 1"):
        ricochet.run("particle-floor", steps=10, every=0)
    with pytest.raises(ValueError, match=r"steps = 2.5 is invalid"):
        ricochet.run("particle-floor", steps=2.5)
    with pytest.raises(ValueError, match=r"m = 'heavy' is not a number"):
        ricochet.run("particle-floor", m="heavy")
    with pytest.raises(TypeError, match="parameters.m: a set is not a JSON value"):
        ricochet.run({"system": "particle-floor", "parameters": {"m": {1}}})
    with pytest.raises(TypeError, match="a scenario is a system id"):
        ricochet.run(42)


def test_simulation_chunks_concatenate_to_the_run():
    whole = ricochet.run("star-floor", steps=1500, every=3)
    sim = ricochet.Simulation("star-floor")
    chunks = [sim.advance(300, every=3) for _ in range(5)]
    for name, values in whole.trace.items():
        assert same_bits(np.concatenate([c.trace[name] for c in chunks]), values), name
    for name, values in whole.impacts.items():
        joined = np.concatenate([c.impacts[name] for c in chunks])
        assert (list(joined) == list(values)) if name == "constraint" else same_bits(joined, values), name
        assert (list(sim.impacts[name]) == list(values)) if name == "constraint" else \
            same_bits(sim.impacts[name], values), name
    assert whole.summary["impacts"] > 3
    assert {k: v for k, v in sim.summary.items() if k not in TIMINGS} == \
        {k: v for k, v in whole.summary.items() if k not in TIMINGS}
    assert chunks[-1].summary == sim.summary
    state = sim.state()
    assert list(state) == sim.columns == list(whole.trace)
    assert all(same_bits([state[c]], whole.trace[c][-1:]) for c in state)
    assert sim.step == 1500 and sim.time == whole.trace["t"][-1] and sim.impact_count == whole.summary["impacts"]
    assert sim.energy == state["energy"] and sim.h == 0.005 and sim.min_gap >= 0
    assert "star-floor" in repr(sim) and "step 1500" in repr(sim)


def test_simulation_advance_to_and_failure():
    sim = ricochet.Simulation("particle-floor", h=0.01)
    first = sim.advance_to(1.0)
    assert sim.step == 100 and len(first.trace["t"]) == 101 and first.trace["t"][0] == 0
    assert len(sim.advance_to(0.5).trace["t"]) == 0  # already past it: no step
    sim.advance_to(2.0, every=10)
    assert sim.step == 200
    assert same_bits(sim.impacts["t"], ricochet.run("particle-floor", steps=200).impacts["t"])

    stuck = ricochet.Simulation("particle-floor", y0=0, vx0=0, vy0=0)
    chunk = stuck.advance(10)
    assert not chunk.ok and not stuck.ok and chunk.summary["status"] == "zeno"
    with pytest.raises(RuntimeError, match="the simulation stopped"):
        stuck.advance(10)


def test_an_energy_error_past_its_bound_is_a_warning(cli, tmp_path):
    """P000's rectangle scheme over 100 s creeps to max |dE/E0| = 0.15, past its bound of 0.05: the
    run is ok, and its summary (and a Simulation's) says not to trust it, as the CLI's does."""
    run = ricochet.run("pendulum-cylinder", steps=100000, every=1000)
    assert run.ok and run.summary["status"] == "ok"
    assert run.summary["warning"].startswith("energy error max |dE/E0| = 0.15 is beyond 0.05")
    assert run.summary["warning"].endswith("for long runs use variational-midpoint")
    cli("run", "pendulum-cylinder", "--steps", "100000", "--summary-json", str(tmp_path / "s.json"))
    assert load_json(tmp_path / "s.json")["warning"] == run.summary["warning"]
    sim = ricochet.Simulation("pendulum-cylinder")
    sim.advance(1000)
    assert sim.summary["warning"] == ""
    sim.advance(99000, every=1000)
    assert sim.summary["warning"] == run.summary["warning"]
    assert ricochet.run("pendulum-cylinder").summary["warning"] == ""


def test_run_objects_pickle_and_describe_themselves():
    run = ricochet.run("disk-table", steps=400)
    back = pickle.loads(pickle.dumps(run))
    assert back.summary == run.summary and same_bits(back.trace["q.x"], run.trace["q.x"])
    assert repr(run).startswith("<ricochet.Run disk-table variational: 400 steps")


def test_everything_public_is_documented():
    import ricochet.distributed
    for name in ricochet.__all__:
        doc = getattr(ricochet, name).__doc__
        assert doc and len(doc) > 40, name
    assert "every" in ricochet.run.__doc__ and "bit for bit" in ricochet.run.__doc__
    for name in ("advance", "advance_to", "state", "impacts", "summary", "columns"):
        assert getattr(ricochet.Simulation, name).__doc__, name
    for name in ("check", "run", "run_runs", "results_csv", "write_results", "keys"):
        assert getattr(ricochet.StudyPlan, name).__doc__, name
    assert "LocalCluster" in ricochet.distributed.run_study.__doc__
