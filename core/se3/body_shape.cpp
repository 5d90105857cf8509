#include "core/se3/body_shape.hpp"

#include "core/model/parameter.hpp"

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
  // in the other part (spec §4.6).
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

MassProperties massProperties(const PolyhedronPart& p, double mass) {
  MassProperties out;
  const int n = static_cast<int>(p.vertices.size());
  if (n < 4) return out;
  // Work relative to the vertex mean c0 (inside the hull): smaller numbers, less cancellation.
  Vec3 c0 = Vec3::Zero();
  for (const Vec3& v : p.vertices) c0 += v;
  c0 /= n;
  std::vector<Vec3> q;
  double size = 0.0;
  for (const Vec3& v : p.vertices) {
    q.push_back(v - c0);
    size = std::max(size, q.back().norm());
  }
  if (!(size > 0.0)) return out;
  const double tol = 1e-12 * size;  // coplanarity tolerance on distances, m

  // Supporting planes through three vertices with every vertex on one side: the hull's faces.
  struct Plane {
    Vec3 normal;  // unit, outward
    double offset;
  };
  std::vector<Plane> planes;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        Vec3 normal = (q[j] - q[i]).cross(q[k] - q[i]);
        if (normal.norm() <= 1e-12 * size * size) continue;  // (nearly) collinear
        normal.normalize();
        const double offset = normal.dot(q[i]);
        bool below = true, above = true;
        for (const Vec3& v : q) {
          const double d = normal.dot(v) - offset;
          below = below && d <= tol;
          above = above && d >= -tol;
        }
        if (!below && !above) continue;
        if (!below) normal = -normal;
        const Plane plane{normal, normal.dot(q[i])};
        bool known = false;
        for (const Plane& f : planes) {
          known = known || (f.normal.dot(plane.normal) > 1.0 - 1e-12 &&
                            std::fabs(f.offset - plane.offset) <= tol);
        }
        if (!known) planes.push_back(plane);
      }

  Vec3 first = Vec3::Zero();   // integral of (rho - c0) dV
  Mat3 second = Mat3::Zero();  // integral of (rho - c0)(rho - c0)^T dV
  for (const Plane& f : planes) {
    // The face polygon: its vertices, ordered counter-clockwise seen from outside.
    std::vector<Vec3> poly;
    Vec3 centre = Vec3::Zero();
    for (const Vec3& v : q) {
      if (std::fabs(f.normal.dot(v) - f.offset) <= tol) {
        poly.push_back(v);
        centre += v;
      }
    }
    centre /= static_cast<double>(poly.size());
    const Vec3 e1 = (poly[0] - centre).normalized(), e2 = f.normal.cross(e1);
    std::sort(poly.begin(), poly.end(), [&](const Vec3& a, const Vec3& b) {
      return std::atan2(e2.dot(a - centre), e1.dot(a - centre)) <
             std::atan2(e2.dot(b - centre), e1.dot(b - centre));
    });
    // Fan into triangles; each with c0 (the local origin) is a tetrahedron of signed volume
    // a.(b x c)/6 > 0, centroid (a+b+c)/4, and second moment V/20 (sum p p^T + (sum p)(sum p)^T)
    // over its vertices p (one of them 0).
    for (std::size_t t = 1; t + 1 < poly.size(); ++t) {
      const Vec3& a = poly[0];
      const Vec3& b = poly[t];
      const Vec3& c = poly[t + 1];
      const double volume = a.dot(b.cross(c)) / 6.0;
      const Vec3 sum = a + b + c;
      out.volume += volume;
      first += volume * sum / 4.0;
      second += (volume / 20.0) * (a * a.transpose() + b * b.transpose() + c * c.transpose() +
                                   sum * sum.transpose());
    }
  }
  out.faces = static_cast<int>(planes.size());
  if (!(out.volume > 0.0)) {
    out.volume = 0.0;
    return out;
  }
  const Vec3 delta = first / out.volume;  // centroid - c0
  out.centroid = c0 + delta;
  // Parallel axes: the second moment about the centroid, then J = tr(J_d) I - J_d (spec §2.1).
  const Mat3 Jd = (mass / out.volume) * (second - out.volume * delta * delta.transpose());
  out.J = Jd.trace() * Mat3::Identity() - Jd;
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
