#pragma once
// Detection of the first gap crossing inside a step, for every sampled collision integrator
// (planar FMOW and rk4-event, the nonholonomic LDAP and reduced schemes). See
// docs/design-notes.md, "Crossing detection inside a step".
//
// Along a step the configuration follows a path q(s), s in [0, 1] (the Verlet drift, the RK4 map
// with a shortened step, the discrete flow Reg(s tau) of the LDAP scheme, ...). Gap j crosses when
// G_j(s) = g_j(q(s)) goes from >= 0 to < 0. The engine describes the path (CrossingPath below);
// the rule, cheapest first:
//  1. Curvature test (no sampling). If the path bounds G_j'' <= kappa_j on [0, 1] and
//     min(G_j(0), G_j(1)) >= max(kappa_j, 0) / 8, then G_j >= 0 on the whole step: a function with
//     G'' <= kappa stays above its chord minus kappa s(1-s)/2 >= chord - kappa/8. A gap that is
//     concave along the path (kappa <= 0, e.g. the particle's y under gravity) therefore needs only
//     its end points. A concave gap with G_j(0) > 0 > G_j(1) has exactly one root in [0, 1]:
//     Brent on [0, 1], no sampling.
//  2. Otherwise K sub-samples s_i = i/K (K = 8 by default); the first sample with G_j < 0 gives
//     the bracket [s_{i-1}, s_i]. On a sub-interval whose end samples are >= 0 but whose
//     curvature bound allows a dip below zero, the minimum is located (root of G_j' by Brent) and
//     checked, so a crossing that dips out and back in between two samples is not missed. A path
//     without a bound for gap j (kappa_j = +inf) is sub-sampled only: such a dip between two
//     samples is not seen, and a contact at s = 0 is examined only when a later sample is
//     negative.
//  3. Brent (core/numerics/roots.hpp) on the bracket; the bracket end on the admissible side is
//     returned, so the impact point satisfies g_j >= 0 exactly as evaluated.
// Contact at s = 0 (G_j(0) within its round-off floor, e.g. the gap just resolved, or a corner
// where two gaps touch; the sign of G_j(0) is then noise and cannot seed a bracket): inward rate
// G_j'(0) < 0 means an impact right at s = 0 ("immediate", resolved as a sequential impulse at the
// same point); outward rate means the gap must first separate, so a later crossing is bracketed
// after the maximum of G_j. Of all gaps the earliest crossing wins.

#include "core/numerics/roots.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <limits>

namespace ricochet::impact {

inline constexpr int kMaxSubsamples = 64;

struct DetectionOptions {
  int subsamples = 8;         ///< K sub-samples per step, 1..kMaxSubsamples
  double tolerance = 1e-14;   ///< root bracket width, as a fraction of the step
  int maxIterations = 200;    ///< Brent cap
};

struct Crossing {
  bool found = false;
  bool immediate = false;  ///< gap already in contact at s = 0 and moving inward
  bool failed = false;     ///< a root solve did not converge, or the path could not be evaluated
  double s = 1.0;          ///< fraction of the path at the crossing, in [0, 1]
  int gap = -1;
  double sLo = 0.0, sHi = 1.0;  ///< the bracket the root was found in (sLo = sHi = s if none)
};

/// What the detector needs from a path: the gaps along it, their rates dG_j/ds, and the round-off
/// floor of each gap (a gap within it of zero is in contact: its sign is noise). A path may fail
/// to evaluate (an implicit step that does not converge): it then returns NaN.
template <class P>
concept CrossingPath = requires(const P& path, double s, int j, typename P::GapVec& out) {
  requires P::kGaps >= 1;
  path.gaps(s, out);                                       // all G_j(s)
  { path.gap(j, s) } -> std::convertible_to<double>;       // G_j(s)
  { path.gapRate(j, s) } -> std::convertible_to<double>;   // dG_j/ds
  { path.gapRoundoff(j, s) } -> std::convertible_to<double>;
};

/// Round-off floor of g_j near q for a model with gapGradient() and a lengthScale: a change of q by
/// one ulp per coordinate moves g_j by up to sum_i |dg_j/dq_i| ulp(q_i), plus the evaluation error.
/// (Unwrapped angles grow large in long runs: theta ~ 1e5 rad has ulp 1.5e-11.)
template <class Model, class Vec>
double gapRoundoff(const Model& model, int j, const Vec& q) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  return 4.0 * eps *
         model.gapGradient(j, q).cwiseAbs().dot((q.cwiseAbs().array() + model.lengthScale).matrix());
}

/// A CrossingPath from a model (gaps(q, out), gap(j, q), gapGradient(j, q), lengthScale) and a
/// motion (position(s), gapRate(j, s)): the planar engines' explicit paths.
template <class Model, class Motion>
struct ModelPath {
  static constexpr int kGaps = Model::kGaps;
  using GapVec = typename Model::GapVec;
  const Model& model;
  const Motion& motion;
  void gaps(double s, GapVec& out) const { model.gaps(motion.position(s), out); }
  double gap(int j, double s) const { return model.gap(j, motion.position(s)); }
  double gapRate(int j, double s) const { return motion.gapRate(j, s); }
  double gapRoundoff(int j, double s) const {
    return impact::gapRoundoff(model, j, motion.position(s));
  }
};

/// Step 1 of the rule for one gap: G(0), G(1) and the bound of G'' prove G >= 0 on [0, 1].
/// G stays above L(s) = (1-s) G(0) + s G(1) - k s(1-s)/2 (k = max(kappa, 0)), whose minimum is
/// at least min(G(0), G(1)) - k/8: the quick test. When that fails, the exact minimum of the
/// parabola L decides. This clears the step after an impact, which starts in contact
/// (G(0) ~ 0) and ends with G(1) >= k/2, without sub-sampling it.
inline bool gapClear(double g0, double g1, double curvature) {
  // No bound (+inf, or NaN): nothing is proved, the path must be sampled.
  if (!(g0 >= 0.0 && g1 >= 0.0) || !(curvature < std::numeric_limits<double>::infinity())) {
    return false;
  }
  const double k = std::max(curvature, 0.0);
  if (std::min(g0, g1) >= 0.125 * k) return true;
  const double slope = g1 - g0 - 0.5 * k;  // L'(0); L'' = k > 0 here
  if (slope >= 0.0 || -slope >= k) return true;  // minimum at an end, both >= 0
  return g0 * (2.0 * k) >= slope * slope;        // L(s*) = g0 - slope^2/(2k) at s* = -slope/k
}
/// Step 1 for all gaps at once: true when no gap can cross on [0, 1], so no sampling is needed.
/// Inline so that the smooth step stays a handful of instructions.
template <class GapVec>
inline bool clearOfContact(const GapVec& g0, const GapVec& g1, const GapVec& curvature) {
  for (int j = 0; j < g0.size(); ++j) {
    if (!gapClear(g0[j], g1[j], curvature[j])) return false;
  }
  return true;
}

/// First crossing along `path` (see the file comment). `g0` and `g1` are the gaps at s = 0 and
/// s = 1 and `curvature` the bounds of G_j'' along the path (+inf where none is known).
template <CrossingPath Path>
Crossing firstCrossing(const Path& path, const typename Path::GapVec& g0,
                       const typename Path::GapVec& g1, const typename Path::GapVec& curvature,
                       const DetectionOptions& options) {
  using GapVec = typename Path::GapVec;
  constexpr int kGaps = Path::kGaps;
  constexpr double kInf = std::numeric_limits<double>::infinity();

  // 1. Curvature test, per gap.
  std::array<bool, kGaps> suspect{};
  bool any = false;
  for (int j = 0; j < kGaps; ++j) {
    suspect[j] = !gapClear(g0[j], g1[j], curvature[j]);
    any = any || suspect[j];
  }
  if (!any) return {};

  auto brent = [&](auto&& f, double lo, double hi, double flo, double fhi) {
    return brentRoot(f, lo, hi, flo, fhi, options.tolerance, 0.0, options.maxIterations);
  };
  // Root of G_j in [lo, hi] (G(lo) >= 0 > G(hi)), returned on the admissible side.
  auto bracketed = [&](int j, double lo, double hi, double flo, double fhi) {
    auto gj = [&](double s) { return path.gap(j, s); };
    const RootResult r = brent(gj, lo, hi, flo, fhi);
    if (!r.converged || !std::isfinite(r.fx)) return Crossing{true, false, true, lo, j, lo, hi};
    const double root = r.fx >= 0.0 ? r.x : (r.x == r.lo ? r.hi : r.lo);
    return Crossing{true, false, false, root, j, lo, hi};
  };

  // A concave G_j (kappa_j <= 0) that starts clear of contact and ends below zero has exactly one
  // root in [0, 1]: no sampling needed (the particle's floor).
  Crossing best;
  bool needSamples = false;
  for (int j = 0; j < kGaps; ++j) {
    if (!suspect[j]) continue;
    if (curvature[j] <= 0.0 && g1[j] < 0.0 && g0[j] > path.gapRoundoff(j, 0.0)) {
      const Crossing c = bracketed(j, 0.0, 1.0, g0[j], g1[j]);
      if (c.failed) return c;
      if (!best.found || c.s < best.s) best = c;
      suspect[j] = false;
    } else {
      needSamples = true;
    }
  }
  if (!needSamples) return best;

  // 2. Sub-samples (all gaps at once: the gaps of a body share its sin/cos).
  const int K = std::clamp(options.subsamples, 1, kMaxSubsamples);
  const double ds = 1.0 / K;
  std::array<GapVec, kMaxSubsamples + 1> G;
  G[0] = g0;
  G[K] = g1;
  for (int i = 1; i < K; ++i) {
    path.gaps(i * ds, G[i]);
    if (!G[i].allFinite()) {
      Crossing c;
      c.failed = true;
      c.s = (i - 1) * ds;
      return c;
    }
  }

  for (int j = 0; j < kGaps; ++j) {
    if (!suspect[j]) continue;
    const bool bounded = curvature[j] < kInf;
    if (!bounded) {
      // Without a bound only a negative sample can show a crossing (a contact at s = 0 included:
      // it is examined only where the path then leaves the admissible set).
      bool negative = false;
      for (int i = 1; i <= K; ++i) negative = negative || G[i][j] < 0.0;
      if (!negative) continue;
    }
    auto gj = [&](double s) { return path.gap(j, s); };
    auto rate = [&](double s) { return path.gapRate(j, s); };
    // In contact at s = 0: G_j(0) within its round-off floor (e.g. the gap just resolved; its
    // sign there is noise, so it must not seed a bracket).
    const bool contact = !(G[0][j] > path.gapRoundoff(j, 0.0));
    if (contact && rate(0.0) < 0.0) {  // moving inward: impact right here
      Crossing c;
      c.found = c.immediate = true;
      c.s = c.sLo = c.sHi = 0.0;
      c.gap = j;
      return c;  // nothing can come earlier
    }
    const double kappa = std::max(curvature[j], 0.0);
    for (int i = 1; i <= K; ++i) {
      const double lo = (i - 1) * ds;
      const double hi = i == K ? 1.0 : i * ds;
      if (best.found && lo >= best.s) break;  // cannot beat the crossing found so far
      const double flo = G[i - 1][j];
      const double fhi = G[i][j];
      const bool fromContact = (i == 1 && contact) || !(flo > 0.0);
      Crossing c;
      if (!(fhi < 0.0)) {
        // Both ends admissible: look for a dip only where the curvature bound allows one.
        if (!bounded || fromContact || std::min(flo, fhi) - kappa * ds * ds / 8.0 > 0.0) continue;
        const double dlo = rate(lo);
        if (!(dlo < 0.0)) continue;
        const double dhi = rate(hi);
        if (!(dhi > 0.0)) continue;
        const double smin = brent(rate, lo, hi, dlo, dhi).x;
        const double fmin = gj(smin);
        if (!(fmin < 0.0)) continue;
        c = bracketed(j, lo, smin, flo, fmin);
      } else if (fromContact) {
        // Leaving contact (outward rate): the crossing comes after the maximum of G_j.
        double smax = lo;
        const double dlo = rate(lo);
        if (dlo > 0.0) {
          const double dhi = rate(hi);
          if (dhi < 0.0) smax = brent(rate, lo, hi, dlo, dhi).x;
        }
        const double fmax = gj(smax);
        if (fmax > path.gapRoundoff(j, smax)) {
          c = bracketed(j, smax, hi, fmax, fhi);
        } else {
          // Never separated beyond round-off: a zero-depth re-impact at the maximum. (Only
          // grazing contacts get here; repeated, it ends in the per-step impact cap.)
          c = Crossing{true, false, false, smax, j, smax, smax};
        }
      } else {
        c = bracketed(j, lo, hi, flo, fhi);
      }
      if (c.failed) return c;
      if (!best.found || c.s < best.s) best = c;
      break;
    }
  }
  return best;
}

}  // namespace ricochet::impact
