#!/usr/bin/env python3
"""Convergence through impacts: the state error at time T against h, on log-log axes.

For each system, a study halves h four times from h0 and a reference run takes h0/128; the error is
the Euclidean norm of the difference of the q.* columns at T (for SE(3): the position and the nine
entries of R), as `ricochet-cli convergence` computes it. Each run passes through an impact before
T. The SE(3) Lie group integrator (the rounded cube of paper 003) and the midpoint scheme of the
nonholonomic pendulum converge at second order, the pendulum's rectangle scheme (paper 000's) at
first order.

    PYTHONPATH=build/python python3 examples/convergence.py --out convergence.png
"""

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import ricochet

LEVELS = 5      # h0, h0/2, ..., h0/16
REF_LEVELS = 3  # the reference takes h0/2^(LEVELS - 1 + REF_LEVELS)

# (label, system, integrator, T, h0, the fitted order `ricochet-cli convergence` reports)
CASES = [
    ("rounded cube on the plane (003 case IV), Lie group VCI", "cube-plane", "variational", 3.2, 0.05, 2.015),
    ("pendulum in a cylinder (000), midpoint scheme", "pendulum-cylinder", "variational-midpoint", 1.5, 0.0125,
     2.019),
    ("pendulum in a cylinder (000), rectangle scheme", "pendulum-cylinder", "variational", 1.5, 0.0125, 1.096),
]


def convergence(system, integrator, t_end, h0):
    """(h values, errors at t_end, impacts per run) of one system."""
    study = {"scenario": {"system": system, "integrator": {"name": integrator}},
             "vary": [{"name": "h", "logspace": [h0, h0 / 2 ** (LEVELS - 1), LEVELS]}], "t_end": t_end}
    rows = ricochet.study(study)
    reference = ricochet.run(system, integrator=integrator, h=h0 / 2 ** (LEVELS - 1 + REF_LEVELS), t_end=t_end,
                             every=10 ** 9)
    assert all(r["status"] == "ok" and r["t_end"] == reference.trace["t"][-1] for r in rows)
    q = [c for c in reference.trace if c.startswith("q.")]
    exact = np.array([reference.trace[c][-1] for c in q])
    errors = [np.linalg.norm([r["final." + c] for c in q] - exact) for r in rows]
    return np.array([r["h"] for r in rows]), np.array(errors), [r["impacts"] for r in rows]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="convergence.png", help="PNG file to write")
    args = parser.parse_args()

    fig, ax = plt.subplots(figsize=(8.5, 6.5), constrained_layout=True)
    colours = ["tab:blue", "tab:green", "tab:red"]
    wrong = []
    for (label, system, integrator, t_end, h0, expected), colour in zip(CASES, colours):
        h, error, impacts = convergence(system, integrator, t_end, h0)
        slope = np.polyfit(np.log(h), np.log(error), 1)[0]
        print(f"{system} {integrator} at T = {t_end} s: impacts {impacts}, errors "
              f"{' '.join(f'{e:.3e}' for e in error)}, fitted order {slope:.3f}")
        ax.loglog(h, error, "o-", color=colour, lw=1.8, ms=6, label=f"{label}: order {slope:.2f}")
        # A guide of the expected order, a little below the data.
        order = round(expected)
        guide = 0.4 * error[0] * (h / h[0]) ** order
        ax.loglog(h, guide, ":", color=colour, lw=1.2)
        mid = len(h) // 2  # labelled in its middle, below the line, clear of the axes' edges
        ax.annotate(f"slope {order}", (h[mid], guide[mid]), textcoords="offset points", xytext=(4, -6),
                    ha="left", va="top", color=colour, fontsize=9)
        if abs(slope - expected) > 0.02:
            wrong.append(f"{system} {integrator}: order {slope:.3f}, expected {expected}")
    ax.set(xlabel="time step h (s)", ylabel="error of q at T (Euclidean norm)",
           title="Convergence through an impact: the error of q at T against a run with h0/128\n"
                 "(dotted: the expected slopes)")
    ax.grid(which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=9)
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")
    if wrong:
        raise SystemExit("orders differ from `ricochet-cli convergence`'s: " + "; ".join(wrong))


if __name__ == "__main__":
    main()
