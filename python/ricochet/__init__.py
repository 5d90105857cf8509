"""Ricochet: mechanical systems with impacts, integrated by variational collision integrators.

The same physics core as ``ricochet-cli``, in Python. Every function takes what the command line
takes and checks it the same way: bad input raises ``ValueError`` with the message
``ricochet-cli`` prints (without its ``ricochet-cli:`` prefix).

    import ricochet
    ricochet.systems()                  # ['particle-floor', 'star-floor', ...]
    r = ricochet.run("particle-floor", t_end=20, m=2)
    r.summary["impacts"], r.trace["t"], r.trace["energy"]

* ``systems()``, ``describe(id)``: the systems and their parameters.
* ``scenario(...)``: a checked scenario as a dict (``ricochet-cli scenario``).
* ``run(...)``: one run; its trace and impacts as NumPy arrays keyed by the CSV columns, and its
  summary (``ricochet-cli run``).
* ``Simulation``: a run advanced in chunks, sampled in between (notebooks).
* ``study(...)``, ``plan_study(...)``, ``write_results(...)``: many runs of one scenario
  (``ricochet-cli study``); ``ricochet.distributed.run_study`` runs them on a Dask cluster.

Long calls release the GIL, so Python threads run simulations in parallel, and Ctrl-C stops them.
"""

from ._ricochet import Run, StudyPlan, describe, plan_study, systems
from . import _ricochet

__all__ = ["systems", "describe", "scenario", "run", "Run", "Simulation", "study", "plan_study",
           "StudyPlan", "write_results", "results_csv"]


def _overrides(integrator, h, tolerance, t_end, names):
    """The overrides dict the core applies in ``ricochet-cli run``'s order."""
    given = {"integrator": integrator, "h": h, "tolerance": tolerance, "t_end": t_end}
    out = {k: v for k, v in given.items() if v is not None}
    out.update(names)
    return out


def scenario(system_or_scenario, *, h=None, integrator=None, tolerance=None, t_end=None, **overrides):
    """The checked scenario, as a dict in the canonical scenario-file form.

    What ``ricochet-cli scenario TARGET [--set NAME=VALUE]... [--h H] ...`` prints:

    system_or_scenario
        a system id (``"cube-plane"``: the paper's defaults), the path of a scenario file (str or
        ``pathlib.Path``), or a scenario dict in the file's format (``{"system": "cube-plane",
        "parameters": {"m": 2}}``; ``"format"`` and ``"version"`` may be left out).
    h, integrator, tolerance, t_end
        the time step (s), integrator name, solver tolerance and duration (s).
    **overrides
        parameters and initial conditions by the names ``describe`` lists (``m=2, z0=5``);
        ``**{"parameters.m": 2}`` names the group when a name is in both.

    Raises ValueError with the command line's message for anything the CLI refuses: an unknown
    system or name, a value out of its range, a malformed file, an initial state outside the
    admissible set. ``json.dump`` of the result is a scenario file ``ricochet-cli run`` reads.
    """
    return _ricochet._scenario(system_or_scenario, _overrides(integrator, h, tolerance, t_end, overrides))


def run(system_or_scenario, *, steps=None, t_end=None, every=1, h=None, integrator=None, tolerance=None,
        **overrides):
    """Integrate one scenario headless and return its Run (trace, impacts, summary).

    The same run as ``ricochet-cli run TARGET --csv ... --impacts-csv ... --summary-json ...``:

    system_or_scenario
        a system id, a scenario file path or a scenario dict (see ``scenario``).
    steps
        number of steps (>= 1); or
    t_end
        simulated time, s (``ceil(t_end / h)`` steps); without either, the scenario's t_end.
    every
        record every K-th step in the trace (the initial and the last state are always recorded).
    h, integrator, tolerance, **overrides
        as for ``scenario``: ``run("cube-plane", h=0.005, steps=20000, m=2)``.

    Returns a ``Run``: ``.trace`` maps each trace CSV column (``step, t, energy, kinetic,
    potential, energy_rel_error, impacts``, then the system's ``q.*``, ``p.*``/``v.*``, ``mom.*``,
    ``e.*``, ``con.*``) to a 1-D ``numpy.float64`` array holding, bit for bit, the numbers the CSV
    prints; ``.impacts`` the impacts CSV's columns (``constraint`` as str); ``.summary`` the summary
    JSON's keys; ``.scenario`` the scenario that ran.

    A run whose integrator fails is returned, not raised: ``.ok`` is False, ``summary["status"]``
    says why and ``summary["message"]`` where, and the trace stops at the last good state (as the
    CSV does). Bad input raises ValueError with the command line's message. The GIL is released
    while it runs; Ctrl-C stops it (KeyboardInterrupt).
    """
    return _ricochet._run(system_or_scenario, _overrides(integrator, h, tolerance, t_end, overrides),
                          steps, every)


class Simulation(_ricochet.Simulation):
    """A run advanced in chunks and sampled in between: the notebook's view of a simulation.

        sim = ricochet.Simulation("cube-plane", h=0.005)
        while sim.time < 30:
            chunk = sim.advance(1000, every=10)      # a Run: this chunk's rows and impacts
            print(sim.time, sim.energy, sim.impact_count)
        sim.state()                                  # the current state as a trace row (dict)
        sim.impacts["t"]                             # every impact so far

    Takes what ``run`` takes (a system id, a scenario file path or dict, and ``h``,
    ``integrator``, ``tolerance``, ``t_end`` and parameter / initial-condition overrides), with the
    same checks. Chunks whose lengths are multiples of ``every`` concatenate to ``run``'s trace
    bit for bit. The GIL is released while a chunk runs; one thread at a time may use a
    Simulation.
    """

    def __init__(self, system_or_scenario, *, h=None, integrator=None, tolerance=None, t_end=None,
                 **overrides):
        super().__init__(system_or_scenario, _overrides(integrator, h, tolerance, t_end, overrides))

    def __repr__(self):
        s = self.scenario
        return (f"<ricochet.Simulation {s['system']} {s['integrator']['name']} h={self.h:g}: "
                f"step {self.step}, t = {self.time:.10g} s, {self.impact_count} impacts"
                f"{'' if self.ok else ', stopped'}>")


def study(study, *, jobs=None):
    """Run every run of a study and return its rows, as ``ricochet-cli study`` computes them.

    study
        a study file path, a study dict (the file's format; ``"format"``/``"version"`` may be
        left out) or a ``StudyPlan``.
    jobs
        worker threads (default: every core).

    Returns a list of dicts, one per run in run order, keyed by the results CSV's columns (see
    ``StudyPlan``); ``write_results`` writes them as that CSV, byte for byte ``ricochet-cli
    study``'s file. The study is checked first as the CLI checks it (ValueError with its message,
    naming the run that cannot start). A failed run is a row with its status, not an exception.
    The GIL is released; Ctrl-C stops it.
    """
    plan = plan_study(study)
    plan.check(jobs)
    return plan.run(jobs)


def results_csv(study, rows):
    """The results CSV text of ``rows`` (from ``study`` or ``distributed.run_study``) of ``study``.

    Byte for byte what ``ricochet-cli study`` writes for the same runs: core's own row formatting.
    Rows must belong to this study, in increasing run order (ValueError otherwise).
    """
    return plan_study(study).results_csv(rows)


def write_results(study, rows, path):
    """Write ``results_csv(study, rows)`` to ``path`` atomically (temporary file, then rename)."""
    plan_study(study).write_results(rows, path)
