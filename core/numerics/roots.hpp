#pragma once
// Scalar root finding shared by the integrators (impact fraction alpha, impulse mu).
//
// brentRoot: Brent's method (Brent 1973, "zeroin") on a sign-changing bracket. Converges
// superlinearly on smooth functions and never leaves the bracket, so a root that the physics
// guarantees (gap positive at s = 0, negative at the first violating sample) is always found.
// Header-only and allocation-free so the step loop can inline it.

#include <cmath>
#include <limits>
#include <utility>

namespace ricochet {

struct RootResult {
  double x = std::numeric_limits<double>::quiet_NaN();  ///< the root (best estimate)
  double fx = std::numeric_limits<double>::quiet_NaN();
  /// Bracket around the root at exit: f(lo) and f(hi) have opposite signs (or one is zero).
  double lo = 0.0, hi = 0.0;
  int iterations = 0;
  bool converged = false;  ///< false only if maxIterations ran out (or the bracket was invalid)
};

/// Finds x in [a, b] with f(x) = 0, given f(a) = fa and f(b) = fb of opposite signs.
/// Stops when |f(x)| <= fTol or the bracket is narrower than xTol (absolute) plus 4 ulp of x.
template <class F>
RootResult brentRoot(F&& f, double a, double b, double fa, double fb, double xTol, double fTol,
                     int maxIterations = 200) {
  RootResult r;
  if (fa == 0.0) {
    r.x = r.lo = r.hi = a; r.fx = 0.0; r.converged = true;
    return r;
  }
  if (fb == 0.0) {
    r.x = r.lo = r.hi = b; r.fx = 0.0; r.converged = true;
    return r;
  }
  if ((fa > 0.0) == (fb > 0.0)) {  // not a bracket
    r.lo = a; r.hi = b;
    return r;
  }
  constexpr double eps = std::numeric_limits<double>::epsilon();
  double c = a, fc = fa, d = b - a, e = d;
  for (int it = 1; it <= maxIterations; ++it) {
    if ((fb > 0.0) == (fc > 0.0)) {  // keep the root between b and c
      c = a; fc = fa; d = e = b - a;
    }
    if (std::fabs(fc) < std::fabs(fb)) {  // b is the best estimate
      a = b; b = c; c = a;
      fa = fb; fb = fc; fc = fa;
    }
    const double tol = 2.0 * eps * std::fabs(b) + 0.5 * xTol;
    const double m = 0.5 * (c - b);
    r.iterations = it;
    if (std::fabs(m) <= tol || std::fabs(fb) <= fTol || fb == 0.0) {
      r.x = b; r.fx = fb;
      r.lo = b < c ? b : c; r.hi = b < c ? c : b;
      r.converged = true;
      return r;
    }
    if (std::fabs(e) >= tol && std::fabs(fa) > std::fabs(fb)) {
      // Interpolation: secant (two points) or inverse quadratic (three points).
      double p, q;
      const double s = fb / fa;
      if (a == c) {
        p = 2.0 * m * s;
        q = 1.0 - s;
      } else {
        const double qq = fa / fc, rr = fb / fc;
        p = s * (2.0 * m * qq * (qq - rr) - (b - a) * (rr - 1.0));
        q = (qq - 1.0) * (rr - 1.0) * (s - 1.0);
      }
      if (p > 0.0) q = -q; else p = -p;
      if (2.0 * p < std::fmin(3.0 * m * q - std::fabs(tol * q), std::fabs(e * q))) {
        e = d; d = p / q;  // accept interpolation
      } else {
        d = m; e = m;  // fall back to bisection
      }
    } else {
      d = m; e = m;
    }
    a = b; fa = fb;
    b += std::fabs(d) > tol ? d : (m > 0.0 ? tol : -tol);
    fb = f(b);
  }
  r.x = b; r.fx = fb;
  r.lo = b < c ? b : c; r.hi = b < c ? c : b;
  return r;
}

}  // namespace ricochet
