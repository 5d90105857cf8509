#include "core/se3/body_shape.hpp"

#include "core/model/parameter.hpp"
#include "core/se3/convex_hull.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>

namespace ricochet::se3 {

EllipsoidPart makeEllipsoid(const Vec3& centre, const Vec3& semiAxes, const Mat3& orientation) {
  EllipsoidPart e;
  e.centre = centre;
  e.M = orientation * semiAxes.asDiagonal() * orientation.transpose();
  e.M2 = orientation * semiAxes.cwiseAbs2().asDiagonal() * orientation.transpose();
  e.P = orientation * semiAxes.cwiseAbs2().cwiseInverse().asDiagonal() * orientation.transpose();
  return e;
}

void attachSupportGraph(PolyhedronPart& p, std::span<const std::array<int, 3>> triangles) {
  const Adjacency adj = adjacencyOf(int(p.vertices.size()), triangles);
  p.neighbourStart = adj.start;
  p.neighbours = adj.neighbours;
  // The seed of each cell: the lowest vertex in the cell's central direction, by a scan.
  constexpr int G = kSupportSeedGrid;
  p.seeds.assign(std::size_t(6 * G * G), 0);
  PolyhedronPart scan;
  scan.vertices = p.vertices;
  for (int face = 0; face < 6; ++face) {
    for (int i = 0; i < G; ++i) {
      for (int j = 0; j < G; ++j) {
        Vec3 u;
        const int axis = face / 2;
        u[axis] = face % 2 ? -1.0 : 1.0;
        u[(axis + 1) % 3] = (2.0 * i + 1.0) / G - 1.0;
        u[(axis + 2) % 3] = (2.0 * j + 1.0) / G - 1.0;
        u.normalize();
        const Vec3 rho = lowestPoint(scan, u).rho;
        const auto it = std::find(p.vertices.begin(), p.vertices.end(), rho);
        p.seeds[std::size_t(supportSeedCell(u))] = int(it - p.vertices.begin());
      }
    }
  }
}

PolyhedronPart makeBox(const Vec3& centre, const Vec3& halfExtents, double epsilon) {
  PolyhedronPart p;
  p.epsilon = epsilon;
  for (int i = 0; i < 8; ++i) {
    const Vec3 sign((i & 1) ? 1.0 : -1.0, (i & 2) ? 1.0 : -1.0, (i & 4) ? 1.0 : -1.0);
    p.vertices.push_back(centre + sign.cwiseProduct(halfExtents));
  }
  return p;
}

namespace {

// The dual of min u.rho s.t. g_k(rho) <= 0 (k = 1, 2) at multipliers nu > 0: the inner
// minimiser rho(nu) = H^-1 (nu1 P1 c1 + nu2 P2 c2 - u), H = nu1 P1 + nu2 P2, the dual value and
// the constraint values g_k(rho(nu)) = ((rho-c_k)^T P_k (rho-c_k) - 1)/2 (= grad of the dual).
struct DualPoint {
  Vec3 rho;
  Mat3 Hinv;
  double value = 0.0;
  Eigen::Vector2d g;
  Vec3 grad1, grad2;  // grad g_k(rho) = P_k (rho - c_k)
};

DualPoint evaluateDual(const EllipsoidPart& e1, const EllipsoidPart& e2, const Vec3& u,
                       const Eigen::Vector2d& nu) {
  DualPoint d;
  const Mat3 H = nu(0) * e1.P + nu(1) * e2.P;
  d.Hinv = H.inverse();
  d.rho = d.Hinv * (nu(0) * (e1.P * e1.centre) + nu(1) * (e2.P * e2.centre) - u);
  const Vec3 r1 = d.rho - e1.centre, r2 = d.rho - e2.centre;
  d.grad1 = e1.P * r1;
  d.grad2 = e2.P * r2;
  d.g = Eigen::Vector2d(0.5 * (r1.dot(d.grad1) - 1.0), 0.5 * (r2.dot(d.grad2) - 1.0));
  d.value = u.dot(d.rho) + nu.dot(d.g);
  return d;
}

}  // namespace

SupportPoint lowestPoint(const IntersectionPart& q, const Vec3& u) {
  const SupportPoint s1 = lowestPoint(q.first, u);
  const SupportPoint s2 = lowestPoint(q.second, u);
  // min over E1 n E2 >= max(min over E1, min over E2), with equality iff that support point lies
  // in the other part.
  if (s1.height >= s2.height) {
    if (implicitValue(q.second, s1.rho) <= 0.0) return s1;
  } else {
    if (implicitValue(q.first, s2.rho) <= 0.0) return s2;
  }

  // Crease case: both constraints active, so the optimal multipliers are both positive.
  // Start from half the single-part multipliers |M_k u| (the nu that make rho(nu) = rho_k).
  Eigen::Vector2d nu(0.5 * (q.first.M * u).norm(), 0.5 * (q.second.M * u).norm());
  DualPoint d = evaluateDual(q.first, q.second, u, nu);
  constexpr double kTolerance = 1e-15;  // on |g_k|, dimensionless (round-off floor ~1e-16)
  SupportPoint out;
  out.ok = false;
  for (int it = 0;; ++it) {
    const double gmax = d.g.cwiseAbs().maxCoeff();
    out.iterations = it;
    out.residual = gmax;
    if (gmax <= kTolerance) {
      out.ok = true;
      break;
    }
    if (it >= q.maxIterations) break;
    // Newton ascent on the concave dual: D dnu = -g with D_kl = -grad_k^T H^-1 grad_l.
    Eigen::Matrix2d D;
    D(0, 0) = -d.grad1.dot(d.Hinv * d.grad1);
    D(1, 1) = -d.grad2.dot(d.Hinv * d.grad2);
    D(0, 1) = D(1, 0) = -d.grad1.dot(d.Hinv * d.grad2);
    const Eigen::Vector2d step = -(D.inverse() * d.g);
    if (!step.allFinite()) break;
    // Stay in nu > 0 (never more than halve a multiplier), then backtrack until the dual rises
    // (Armijo) or, near the optimum where the dual's increase is below its round-off, until
    // the KKT residual |g| halves.
    double t = 1.0;
    for (int k = 0; k < 2; ++k) {
      if (step(k) < 0.0) t = std::min(t, 0.5 * nu(k) / -step(k));
    }
    DualPoint trial;
    bool accepted = false;
    for (int ls = 0; ls < 60; ++ls, t *= 0.5) {
      trial = evaluateDual(q.first, q.second, u, nu + t * step);
      if (trial.value >= d.value + 1e-4 * t * d.g.dot(step) ||
          trial.g.cwiseAbs().maxCoeff() <= 0.5 * gmax) {
        accepted = true;
        break;
      }
    }
    if (!accepted) {
      // No ascent left at round-off level: accept if the constraints are met to ~1e-12.
      out.ok = gmax <= 1e-12;
      break;
    }
    nu += t * step;
    d = trial;
  }
  if (!out.ok) out.failedPart = 0;  // the caller (a union) renumbers it
  out.rho = d.rho;
  out.height = u.dot(d.rho);
  return out;
}

std::string validate(const BodyShape& shape) {
  if (shape.ellipsoids.empty() && shape.polyhedra.empty() && shape.intersections.empty()) {
    return "shape has no parts";
  }
  auto checkEllipsoid = [](const EllipsoidPart& e) -> std::string {
    if (!e.centre.allFinite() || !e.M.allFinite() || !e.P.allFinite()) {
      return "ellipsoid part has a non-finite centre or semi-axis";
    }
    const double detM = e.M.determinant();
    if (!(detM > 0.0)) return "ellipsoid part has a non-positive semi-axis (det M = " +
                              formatNumber(detM) + ")";
    return {};
  };
  for (const EllipsoidPart& e : shape.ellipsoids) {
    std::string err = checkEllipsoid(e);
    if (!err.empty()) return err;
  }
  for (const PolyhedronPart& p : shape.polyhedra) {
    if (p.vertices.empty()) return "polyhedron part has no vertices";
    if (!std::isfinite(p.epsilon) || p.epsilon < 0.0) {
      return "polyhedron rounding epsilon = " + formatNumber(p.epsilon) + " must be >= 0 m";
    }
    for (const Vec3& v : p.vertices) {
      if (!v.allFinite()) return "polyhedron part has a non-finite vertex";
    }
    if (!p.neighbours.empty() &&
        (p.neighbourStart.size() != p.vertices.size() + 1 ||
         p.seeds.size() != std::size_t(6 * kSupportSeedGrid * kSupportSeedGrid))) {
      return "polyhedron part has a support graph that does not fit its vertices";
    }
  }
  for (const IntersectionPart& q : shape.intersections) {
    std::string err = checkEllipsoid(q.first);
    if (err.empty()) err = checkEllipsoid(q.second);
    if (!err.empty()) return err;
    if (q.maxIterations < 1) {
      return "intersection part: maxIterations = " + std::to_string(q.maxIterations) +
             " must be >= 1";
    }
    // An empty intersection makes the dual unbounded: the crease solve fails in some direction.
    for (int k = 0; k < 6; ++k) {
      Vec3 u = Vec3::Zero();
      u(k % 3) = k < 3 ? 1.0 : -1.0;
      const SupportPoint s = lowestPoint(q, u);
      if (!s.ok || implicitValue(q.first, s.rho) > 1e-9 || implicitValue(q.second, s.rho) > 1e-9) {
        return "intersection part is empty (the two ellipsoids do not overlap)";
      }
    }
  }
  return {};
}

}  // namespace ricochet::se3
