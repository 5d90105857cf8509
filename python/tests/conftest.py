"""Shared fixtures: the ricochet-cli binary of the same build, and CSV helpers.

CTest (tests/python.cmake) sets PYTHONPATH to build/python, RICOCHET_CLI to bin/ricochet-cli and
RICOCHET_SOURCE_DIR to the repository.
"""

import csv
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

CLI = os.environ.get("RICOCHET_CLI", "")
SOURCE_DIR = Path(os.environ.get("RICOCHET_SOURCE_DIR", Path(__file__).resolve().parents[2]))
PRESETS = SOURCE_DIR / "resources" / "presets"


@pytest.fixture(scope="session")
def cli():
    """Runs ricochet-cli with the given arguments; returns the CompletedProcess (text)."""
    if not CLI or not Path(CLI).is_file():
        pytest.fail("RICOCHET_CLI must name the build's bin/ricochet-cli (CTest sets it)")

    def run(*args, check=True):
        p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
        if check and p.returncode not in (0, 3):
            raise AssertionError(f"ricochet-cli {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
        return p

    return run


def cli_error(process):
    """The one-line message of a refused command (its stderr without the 'ricochet-cli: ' prefix)."""
    assert process.returncode == 2, (process.returncode, process.stderr)
    line = process.stderr.strip()
    assert line.startswith("ricochet-cli: "), line
    return line[len("ricochet-cli: "):]


def read_csv(path):
    """(header, rows as lists of str) of a CSV file."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def csv_columns(path):
    """{column: list of str} of a CSV file, in header order."""
    header, rows = read_csv(path)
    return {name: [r[i] for r in rows] for i, name in enumerate(header)}


def same_bits(a, b):
    """True when two float64 arrays hold the same doubles bit for bit (any NaN equals any NaN)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return False
    nan = np.isnan(a) & np.isnan(b)
    return bool(np.array_equal(a.view(np.uint64)[~nan], b.view(np.uint64)[~nan]))


def number_text(x):
    """A number as the trace CSV prints it: 17 significant digits, like C's %.17g."""
    return "%.17g" % x


def load_json(path):
    with open(path) as f:
        return json.load(f)


def pytest_configure(config):
    # Debian's distributed 2022.12 with tornado 6.2 warns about tornado's own API on every cluster.
    config.addinivalue_line("filterwarnings", "ignore:make_current is deprecated:DeprecationWarning")
