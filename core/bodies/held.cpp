#include "core/bodies/held.hpp"

#include <algorithm>
#include <cmath>

namespace ricochet::bodies {

namespace {

contact::Placement placementOf(const Body& b, const BodyState& s) {
  contact::Placement p;
  p.shape = &b.shape;
  p.x = s.x;
  p.R = s.R;
  return p;
}

/// Normal velocity of body `i`'s point with lever chi along n (sign s: +1 for A, -1 for B).
double pointVelocity(const Body& b, const BodyState& s, const Vec3& n, const Vec3& chi) {
  return n.dot(s.gamma) / b.m + (b.Jinv * chi).dot(s.Pi);
}

/// The Delassus entry of rows k and l (normal velocity change at k per unit impulse at l).
double delassus(const WorldModel& w, const HeldRow& rk, const RowValue& k, const HeldRow& rl,
                const RowValue& l) {
  double d = 0.0;
  auto term = [&](int body, const Vec3& chiK, double sk, const Vec3& chiL, double sl) {
    const Body& b = w.bodies[std::size_t(body)];
    if (b.fixed) return;
    d += sk * sl * (k.n.dot(l.n) / b.m + chiK.dot(b.Jinv * chiL));
  };
  if (rk.a == rl.a) term(rk.a, k.chiA, 1.0, l.chiA, 1.0);
  if (rl.b >= 0 && rk.a == rl.b) term(rk.a, k.chiA, 1.0, l.chiB, -1.0);
  if (rk.b >= 0 && rk.b == rl.a) term(rk.b, k.chiB, -1.0, l.chiA, 1.0);
  if (rk.b >= 0 && rk.b == rl.b) term(rk.b, k.chiB, -1.0, l.chiB, -1.0);
  return d;
}

/// Applies impulse P along row k (value v) to the states in `s`.
void applyRow(const WorldModel& w, const HeldRow& r, const RowValue& v, double P,
              std::vector<BodyState>& s) {
  BodyState& a = s[std::size_t(r.a)];
  a.gamma += P * v.n;
  a.Pi += P * v.chiA;
  if (r.b >= 0 && !w.bodies[std::size_t(r.b)].fixed) {
    BodyState& b = s[std::size_t(r.b)];
    b.gamma -= P * v.n;
    b.Pi -= P * v.chiB;
  }
}

const BodyState& stateOfB(const HeldRow& r, const std::vector<BodyState>& s) {
  return s[std::size_t(r.b >= 0 ? r.b : r.a)];
}

}  // namespace

RowValue evaluateRow(const WorldModel& w, const HeldRow& row, const BodyState& sa,
                     const BodyState& sb) {
  RowValue v;
  const Body& A = w.bodies[std::size_t(row.a)];
  switch (row.kind) {
    case RowKind::SupportPlane: {
      const Plane& p = w.planes[std::size_t(row.plane)];
      const contact::PlaneGap g =
          contact::planeGap(placementOf(A, sa), A.parts[std::size_t(row.pa)], p.n, p.offset);
      v.gap = g.gap;
      v.n = p.n;
      v.chiA = g.rho.cross(sa.R.transpose() * p.n);
      v.point = g.point;
      break;
    }
    case RowKind::VertexPlane: {
      const Plane& p = w.planes[std::size_t(row.plane)];
      const se3::PolyhedronPart& poly =
          A.shape.polyhedra[std::size_t(A.parts[std::size_t(row.pa)].index)];
      const Vec3 u = sa.R.transpose() * p.n;
      const Vec3& vert = poly.vertices[std::size_t(row.vertex)];
      const Vec3 rho = vert - poly.epsilon * u;
      v.gap = (p.n.dot(sa.x) - p.offset) + u.dot(vert) - poly.epsilon;
      v.n = p.n;
      v.chiA = rho.cross(u);
      v.point = sa.x + sa.R * rho;
      break;
    }
    case RowKind::SupportPair: {
      const Body& B = w.bodies[std::size_t(row.b)];
      const contact::PairGap g = contact::pairGap(placementOf(A, sa), A.parts[std::size_t(row.pa)],
                                                  placementOf(B, sb), B.parts[std::size_t(row.pb)],
                                                  sa.x - sb.x);
      v.gap = g.gap;
      v.n = g.normal;
      v.chiA = g.rhoA.cross(sa.R.transpose() * g.normal);
      v.chiB = g.rhoB.cross(sb.R.transpose() * g.normal);
      v.point = g.pointA;
      break;
    }
    case RowKind::PointFace: {
      v.n = sb.R * row.nB;
      const Vec3 pa = sa.x + sa.R * row.rhoA;
      const Vec3 pb = sb.x + sb.R * row.rhoB;
      v.gap = v.n.dot(pa - pb);
      v.chiA = row.rhoA.cross(sa.R.transpose() * v.n);
      v.chiB = row.rhoB.cross(row.nB);
      v.point = pa;
      break;
    }
  }
  return v;
}

double rowVelocity(const WorldModel& w, const RowValue& v, const HeldRow& row, const BodyState& sa,
                   const BodyState& sb) {
  double u = pointVelocity(w.bodies[std::size_t(row.a)], sa, v.n, v.chiA);
  if (row.b >= 0 && !w.bodies[std::size_t(row.b)].fixed) {
    u -= pointVelocity(w.bodies[std::size_t(row.b)], sb, v.n, v.chiB);
  }
  return u;
}

void HeldWork::reserve(int rows, int bodies) {
  lcp.reserve(rows);
  if (int(Lambda.size()) < rows) {
    Lambda.resize(std::size_t(rows));
    start.resize(std::size_t(rows));
    end.resize(std::size_t(rows));
  }
  if (int(kicked.size()) < bodies) kicked.resize(std::size_t(bodies));
}

ConstrainedResult constrainedFlow(const WorldModel& w, std::span<const int> bodies,
                                  std::span<const HeldRow> rows, const std::vector<BodyState>& from,
                                  double tau, std::vector<BodyState>& to, std::vector<char>& lifted,
                                  HeldWork& work) {
  ConstrainedResult res;
  const int K = int(rows.size());
  work.reserve(K, int(w.bodies.size()));
  std::vector<BodyState>& kicked = work.kicked;
  for (const int i : bodies) kicked[std::size_t(i)] = from[std::size_t(i)];
  for (int k = 0; k < K; ++k) {
    const HeldRow& r = rows[std::size_t(k)];
    work.start[std::size_t(k)] =
        evaluateRow(w, r, from[std::size_t(r.a)], stateOfB(r, from));
    work.Lambda[std::size_t(k)] = 0.0;
  }
  // Newton's Jacobian of the end gaps with respect to the start impulses: tau D(start).
  contact::LcpSolver& lcp = work.lcp;
  // Position tolerance: a few ulps of the island's coordinates (at least 1e-15 m).
  double scale = 1.0;
  for (const int i : bodies) scale = std::max(scale, from[std::size_t(i)].x.cwiseAbs().maxCoeff());
  const double tol = 64.0 * 2.220446049250313e-16 * scale;
  constexpr int kMaxIterations = 60;
  for (int it = 0;; ++it) {
    for (const int i : bodies) {
      const FlowResult f = flowBody(w, w.bodies[std::size_t(i)], kicked[std::size_t(i)], tau,
                                    to[std::size_t(i)]);
      if (!f.ok) {
        res.ok = false;
        res.what = "SolveF did not converge inside the constrained step of a held contact";
        return res;
      }
    }
    double worst = 0.0;
    bool done = true;
    for (int k = 0; k < K; ++k) {
      const HeldRow& r = rows[std::size_t(k)];
      work.end[std::size_t(k)] = evaluateRow(w, r, to[std::size_t(r.a)], stateOfB(r, to));
      const double g = work.end[std::size_t(k)].gap;
      if (work.Lambda[std::size_t(k)] > 0.0) {
        worst = std::max(worst, std::fabs(g));
        done = done && std::fabs(g) <= tol;
      } else {
        done = done && g >= -tol;
      }
    }
    res.iterations = it;
    res.residual = worst;
    if (done) break;
    if (it >= kMaxIterations) {
      res.ok = false;
      res.what = "the constrained step of a held contact did not converge";
      return res;
    }
    // LCP in the new impulses: w = g + tau D (Lambda' - Lambda) >= 0, Lambda' >= 0.
    for (int k = 0; k < K; ++k) {
      double q = work.end[std::size_t(k)].gap;
      for (int l = 0; l < K; ++l) {
        const double m = tau * delassus(w, rows[std::size_t(k)], work.start[std::size_t(k)],
                                        rows[std::size_t(l)], work.start[std::size_t(l)]);
        lcp.M(k, l) = m;
        q -= m * work.Lambda[std::size_t(l)];
      }
      lcp.q(k) = q;
    }
    lcp.solve(K, 0.25 * tol);
    for (const int i : bodies) kicked[std::size_t(i)] = from[std::size_t(i)];
    for (int k = 0; k < K; ++k) {
      work.Lambda[std::size_t(k)] = lcp.x(k);
      if (lcp.x(k) > 0.0) {
        applyRow(w, rows[std::size_t(k)], work.start[std::size_t(k)], lcp.x(k), kicked);
      }
    }
  }
  // End impulses: no held contact may close at the end of the step.
  double fastest = 0.0;
  for (int k = 0; k < K; ++k) {
    const HeldRow& r = rows[std::size_t(k)];
    const double u = rowVelocity(w, work.end[std::size_t(k)], r, to[std::size_t(r.a)], stateOfB(r, to));
    lcp.q(k) = u;
    fastest = std::max(fastest, std::fabs(u));
    for (int l = 0; l <= k; ++l) {
      const double d = delassus(w, r, work.end[std::size_t(k)], rows[std::size_t(l)], work.end[std::size_t(l)]);
      lcp.M(k, l) = d;
      lcp.M(l, k) = d;
    }
  }
  if (fastest > 0.0) {
    lcp.solve(K, 1e-13 * fastest);
    for (int k = 0; k < K; ++k) {
      if (lcp.x(k) > 0.0) applyRow(w, rows[std::size_t(k)], work.end[std::size_t(k)], lcp.x(k), to);
    }
  }
  lifted.assign(std::size_t(K), 0);
  for (int k = 0; k < K; ++k) {
    const bool pushed = work.Lambda[std::size_t(k)] > 0.0 || (fastest > 0.0 && lcp.x(k) > 0.0);
    // A row lets go when it opens by more than gravity along its normal closes again within a
    // step (the settling rule read backwards): a smooth body rocking on the plane, whose
    // multiplier touches zero now and then, would otherwise let go and land again every few
    // steps, each landing a small impact and each new hold a new start of RATTLE's energy
    // oscillation, which adds up.
    const double gn = w.g * std::fabs(work.end[std::size_t(k)].n.z());
    const double gap = work.end[std::size_t(k)].gap;
    const double rate = fastest > 0.0 ? lcp.w(k) : 0.0;
    const bool opening = (gap > tol || rate > 1e-12 * fastest) &&
                         (gap > 0.5 * gn * tau * tau || rate > 0.5 * gn * tau);
    lifted[std::size_t(k)] = !pushed && opening ? 1 : 0;
  }
  // RATTLE's velocity constraint on the rows that stay held: their normal velocity is zero at
  // the end of the step, opening as well as closing (the one-sided projection above leaves an
  // opening rate, which the next step's pushing-only impulses cannot take back: a rocking smooth
  // body then gained energy step after step). Gauss-Seidel over the rows, no allocation.
  for (int sweep = 0; sweep < 50; ++sweep) {
    double worst = 0.0;
    for (int k = 0; k < K; ++k) {
      if (lifted[std::size_t(k)]) continue;
      const HeldRow& r = rows[std::size_t(k)];
      const RowValue& v = work.end[std::size_t(k)];
      const double u = rowVelocity(w, v, r, to[std::size_t(r.a)], stateOfB(r, to));
      const double d = delassus(w, r, v, r, v);
      if (!(d > 0.0)) continue;
      worst = std::max(worst, std::fabs(u));
      applyRow(w, r, v, -u / d, to);
    }
    if (!(worst > 1e-13 * std::max(fastest, 1e-3))) break;
  }
  return res;
}

}  // namespace ricochet::bodies
