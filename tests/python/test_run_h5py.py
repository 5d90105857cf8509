"""HDF5 run files as other tools read them: h5py gives back the trace and impacts CSVs of the same
`ricochet-cli run` bit for bit (columns in CSV order, the constraint index through its names), with
the canonical scenario, the version and the integrator as string attributes; h5dump reads them.

Run by CTest (test_run_h5py) with Debian's python3; by hand:
  RICOCHET_CLI=build/bin/ricochet-cli /usr/bin/python3 -m pytest -q tests/python/test_run_h5py.py
"""

import csv
import os
import shutil
import subprocess

import h5py
import numpy as np
import pytest

CLI = os.environ.get("RICOCHET_CLI", "build/bin/ricochet-cli")


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=300)


def systems():
    listing = cli("list")
    assert listing.returncode == 0, listing.stderr
    return [line.split("\t")[0] for line in listing.stdout.splitlines()]


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def same_bits(a, b):
    """Equal as IEEE doubles, bit for bit (NaN equal to NaN)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and bool(np.all((a.view(np.uint64) == b.view(np.uint64)) | (np.isnan(a) & np.isnan(b))))


@pytest.mark.parametrize("system", systems())
def test_h5py_reads_the_csv_values_bit_for_bit(tmp_path, system):
    trace, impacts, h5 = tmp_path / "t.csv", tmp_path / "i.csv", tmp_path / "r.h5"
    run = cli("run", system, "--steps", "300", "--every", "2", "--csv", str(trace),
              "--impacts-csv", str(impacts), "--h5", str(h5))
    assert run.returncode == 0, run.stderr
    with h5py.File(h5, "r") as f:
        header, rows = read_csv(trace)
        assert list(f["trace"]) == header  # creation order is the CSV's
        assert list(f["trace"].attrs["columns"]) == header
        for k, name in enumerate(header):
            column = f["trace"][name]
            assert column.dtype == np.float64 and column.maxshape == (None,)
            assert same_bits(column[:], [float(r[k]) for r in rows]), name

        header, rows = read_csv(impacts)
        assert list(f["impacts"]) == header
        names = list(f["impacts/constraint"].attrs["names"])
        for k, name in enumerate(header):
            column = f["impacts"][name][:]
            if name == "constraint" and "body_a" in f["impacts"]:
                # Between bodies the CSV writes "A|B" or "A|PLANE": the bodies' names.
                bodies = list(f["impacts/body_a"].attrs["names"])
                a, b = f["impacts/body_a"][:], f["impacts/body_b"][:]
                assert [bodies[int(x)] + "|" + (bodies[int(y)] if y >= 0 else names[i])
                        for i, x, y in zip(column, a, b)] == [r[k] for r in rows]
            elif name == "constraint":
                assert column.dtype == np.int32
                assert [names[i] for i in column] == [r[k] for r in rows]
            else:
                assert same_bits(column, [float(r[k]) for r in rows]), name

        scenario = cli("scenario", system)
        assert f.attrs["scenario"] == scenario.stdout  # the canonical scenario JSON, a str
        assert f.attrs["system"] == system
        assert f.attrs["integrator"] == "variational"
        assert f.attrs["ricochet_version"]
        assert f.attrs["status"] == "ok" and f.attrs["message"] == ""
        assert f.attrs["steps"] == 300 and f.attrs["every"] == 2
        assert f.attrs["energy_dissipated"] == 0 and np.isnan(f.attrs["settled_t"])


def test_h5dump_reads_the_file(tmp_path):
    assert shutil.which("h5dump"), "h5dump not found (Debian hdf5-tools)"
    h5 = tmp_path / "r.h5"
    assert cli("run", "particle-floor", "--steps", "5", "--h5", str(h5)).returncode == 0
    dump = subprocess.run(["h5dump", "-d", "/trace/t", str(h5)], capture_output=True, text=True)
    assert dump.returncode == 0, dump.stderr
    assert 'DATASET "/trace/t"' in dump.stdout
    assert "(0): 0, 0.01, 0.02, 0.03, 0.04, 0.05" in dump.stdout
