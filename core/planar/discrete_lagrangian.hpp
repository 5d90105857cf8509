#pragma once
// The discrete Lagrangians (docs/planar-vci.md, "Discrete Lagrangians and discrete energy") and
// their discrete energies E_d = -D3 L_d (FMOW (55)),
// for L(q, v) = 1/2 v^T M(q) v - V(q), with w = (q1 - q0)/tau:
//   (R) rectangle  L_d = tau L(q0, w)                          E_d = 1/2 w^T M(q0) w + V(q0)
//   (M) midpoint   L_d = tau L(qbar, w), qbar = (q0 + q1)/2    E_d = 1/2 w^T M(qbar) w + V(qbar)
//   (T) trapezoid  L_d = (tau/2) w^T M w - (tau/2)(V(q0) + V(q1))   (71), M constant (M(q0) used)
//                  E_d = 1/2 w^T M w + (V(q0) + V(q1))/2                 (72)
// For L_d = tau L(psi(q0, q1), w) the general fact is E_d = dL/dv(psi, w) w - L(psi, w), the
// continuous energy at the quadrature point. The FMOW integrator uses (T) (fmow_integrator.hpp,
// evaluated there in momentum form); (R) and (M) are the retraction-based choices of P000.
//
// A Lagrangian here provides kinetic(q, v) = 1/2 v^T M(q) v (J) and potential(q) (J).

namespace ricochet::planar {

enum class Quadrature { Rectangle, Midpoint, Trapezoid };

/// L_d(q0, q1, tau) in J s; tau in s (> 0).
template <class Lagrangian, class Vec>
double discreteLagrangian(Quadrature quadrature, const Lagrangian& L, const Vec& q0,
                          const Vec& q1, double tau) {
  const Vec w = (q1 - q0) / tau;
  switch (quadrature) {
    case Quadrature::Rectangle: return tau * (L.kinetic(q0, w) - L.potential(q0));
    case Quadrature::Midpoint: {
      const Vec qbar = 0.5 * (q0 + q1);
      return tau * (L.kinetic(qbar, w) - L.potential(qbar));
    }
    case Quadrature::Trapezoid:
      return tau * L.kinetic(q0, w) - 0.5 * tau * (L.potential(q0) + L.potential(q1));
  }
  return 0.0;
}

/// E_d(q0, q1, tau) = -D3 L_d in closed form (the table above), J.
template <class Lagrangian, class Vec>
double discreteEnergy(Quadrature quadrature, const Lagrangian& L, const Vec& q0, const Vec& q1,
                      double tau) {
  const Vec w = (q1 - q0) / tau;
  switch (quadrature) {
    case Quadrature::Rectangle: return L.kinetic(q0, w) + L.potential(q0);
    case Quadrature::Midpoint: {
      const Vec qbar = 0.5 * (q0 + q1);
      return L.kinetic(qbar, w) + L.potential(qbar);
    }
    case Quadrature::Trapezoid:
      return L.kinetic(q0, w) + 0.5 * (L.potential(q0) + L.potential(q1));
  }
  return 0.0;
}

}  // namespace ricochet::planar
