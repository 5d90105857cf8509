#!/usr/bin/env python3
"""Energy of the bouncing particle over 1000 impacts (FMOW, section 4.2).

The variational collision integrator keeps the energy in a bounded band for any number of impacts:
the node energy H is exact in flight (uniform gravity) and each impact kicks it by at most
(h^2/8) |grad V|^2/m, with signs that do not accumulate. The horizontal momentum p_x is conserved
to the last bit (discrete Noether). Three panels: the first bounces, H - E0 over the whole run, and
H - E0 right after each of the 1000 impacts.

    PYTHONPATH=build/python python3 examples/bounce_energy.py --out bounce_energy.png
"""

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import ricochet

PRESET = Path(__file__).resolve().parents[1] / "resources" / "presets" / "004-particle-floor-1000-impacts.json"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bounce_energy.png", help="PNG file to write")
    args = parser.parse_args()

    run = ricochet.run(PRESET)  # 90350 steps of h = 0.01 s, every step recorded
    trace, impacts = run.trace, run.impacts
    t, energy, e0 = trace["t"], trace["energy"], trace["energy"][0]
    excess = (energy - e0) * 1e3  # mJ
    after = (impacts["energy_after"] - e0) * 1e3
    count = len(impacts["t"])
    px_drift = np.ptp(trace["mom.px"])
    print(f"{count} impacts in {t[-1]:g} s, the last at {impacts['t'][-1]:.6f} s; "
          f"max |H - E0| = {np.abs(energy - e0).max():.3e} J (E0 = {e0:g} J); p_x spread {px_drift:g}")

    fig, (top, middle, bottom) = plt.subplots(3, 1, figsize=(10, 9), constrained_layout=True,
                                              gridspec_kw={"height_ratios": [1, 1.2, 1.2]})
    fig.suptitle(f"Particle bouncing on a floor: {count} impacts, variational integrator, "
                 f"h = {run.summary['h']:g} s (FMOW §4.2)", fontsize=13)

    first = t <= 10
    top.plot(t[first], trace["q.y"][first], color="tab:blue", lw=1.2)
    early = impacts["t"][impacts["t"] <= 10]
    top.plot(early, np.zeros_like(early), "v", color="tab:red", ms=5)
    top.set(xlabel="t (s)", ylabel="height y (m)", title="The first 10 s (red: the impacts)", xlim=(0, 10))

    bound = np.abs(excess).max()
    middle.plot(t, excess, color="tab:blue", lw=0.6)
    for y in (-bound, bound):
        middle.axhline(y, color="0.4", ls="--", lw=0.8)
    middle.set(xlabel="t (s)", ylabel="H − E0 (mJ)", xlim=(0, t[-1]),
               title=f"Energy error over the whole run: bounded by {bound:.2f} mJ, no drift "
                     f"({bound * 1e-3 / e0:.1e} of E0 = {e0:g} J)")

    bottom.plot(np.arange(1, count + 1), after, ".", color="tab:red", ms=2.5)
    bottom.axhline(0, color="0.4", lw=0.8)
    bottom.set(xlabel="impact number", ylabel="H − E0 after the impact (mJ)", xlim=(0, count + 1),
               title="Right after each impact: the kicks do not accumulate")
    for ax in (middle, bottom):
        ax.grid(alpha=0.3)
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")

    # What FMOW's run shows (the presets index: 1000 impacts, max |H - E0| <= 4e-3 J, p_x = -2).
    if count != 1000 or not np.abs(energy - e0).max() <= 4e-3 or px_drift != 0:
        raise SystemExit("the run does not reproduce FMOW's: expected 1000 impacts, |H - E0| <= 4e-3 J, "
                         "p_x exact")


if __name__ == "__main__":
    main()
