#pragma once
// Central finite differences for the derivative checks of every engine's analytic gradients and
// Jacobians (planar models and impact solves, nonholonomic models and discrete Lagrangians, SE(3)
// Newton Jacobians and collision-function gradients). Truncation error O(eps^2), round-off
// O(|f| machine-eps / eps): eps = 1e-6 keeps both near 1e-10 for O(1) functions. Test-only.

#include <Eigen/Core>

#include <type_traits>

namespace ricochet::testing {

/// d/dx f at x: (f(x + eps) - f(x - eps)) / (2 eps) for a scalar argument. f may return a double
/// or an Eigen vector.
template <class F>
auto centralDifference(F&& f, double x, double eps = 1e-6) {
  using R = std::decay_t<decltype(f(x))>;  // a double or a concrete Eigen type
  const R fp = f(x + eps), fm = f(x - eps);
  return R((fp - fm) / (2.0 * eps));
}

/// Partial derivative of f along coordinate j of the vector x (column j of the Jacobian).
template <class F, class Vec>
auto partialDifference(F&& f, const Vec& x, int j, double eps = 1e-6) {
  Vec xp = x, xm = x;
  xp[j] += eps;
  xm[j] -= eps;
  using R = std::decay_t<decltype(f(x))>;
  const R fp = f(xp), fm = f(xm);
  return R((fp - fm) / (2.0 * eps));
}

/// Directional derivative of f at x along `direction` (a path x + t direction, t in [-eps, eps]).
template <class F, class Vec>
auto directionalDifference(F&& f, const Vec& x, const Vec& direction, double eps = 1e-6) {
  using R = std::decay_t<decltype(f(x))>;
  const R fp = f(Vec(x + eps * direction)), fm = f(Vec(x - eps * direction));
  return R((fp - fm) / (2.0 * eps));
}

/// Gradient of a scalar f (a vector of the argument's size) by central differences.
template <class F, class Vec>
Vec gradientDifference(F&& f, const Vec& x, double eps = 1e-6) {
  Vec g = x;
  for (int j = 0; j < x.size(); ++j) g[j] = partialDifference(f, x, j, eps);
  return g;
}

/// Jacobian of a vector-valued f (rows: f's size, columns: x's size) by central differences.
template <class F, class Vec>
auto jacobianDifference(F&& f, const Vec& x, double eps = 1e-6) {
  using R = std::decay_t<decltype(f(x))>;
  Eigen::Matrix<double, R::RowsAtCompileTime, Vec::RowsAtCompileTime> J(f(x).size(), x.size());
  for (int j = 0; j < x.size(); ++j) J.col(j) = partialDifference(f, x, j, eps);
  return J;
}

}  // namespace ricochet::testing
