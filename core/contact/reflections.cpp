#include "core/contact/reflections.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::contact {

namespace {

/// The velocity of body `i` at a contact with rotational lever chi, along n: n.gamma/m + (J^-1
/// chi).Pi (the LGVCI's dPhi/dt for a plane).
double pointVelocity(const ImpactBody& b, const Vec3& n, const Vec3& chi) {
  return n.dot(b.gamma) / b.m + (b.Jinv * chi).dot(b.Pi);
}

/// Delassus entry of contacts k and l: the normal velocity change at k per unit impulse at l.
double delassus(std::span<const ImpactBody> bodies, const ImpactContact& k, const ImpactContact& l) {
  double d = 0.0;
  auto term = [&](int body, const Vec3& chiK, double sk, const Vec3& chiL, double sl) {
    const ImpactBody& b = bodies[std::size_t(body)];
    d += sk * sl * (k.n.dot(l.n) / b.m + chiK.dot(b.Jinv * chiL));
  };
  if (k.a == l.a) term(k.a, k.chiA, 1.0, l.chiA, 1.0);
  if (l.b >= 0 && k.a == l.b) term(k.a, k.chiA, 1.0, l.chiB, -1.0);
  if (k.b >= 0 && k.b == l.a) term(k.b, k.chiB, -1.0, l.chiA, 1.0);
  if (k.b >= 0 && k.b == l.b) term(k.b, k.chiB, -1.0, l.chiB, -1.0);
  return d;
}

void applyImpulse(std::span<ImpactBody> bodies, const ImpactContact& c, double P) {
  ImpactBody& a = bodies[std::size_t(c.a)];
  a.gamma += P * c.n;
  a.Pi += P * c.chiA;
  if (c.b >= 0) {
    ImpactBody& b = bodies[std::size_t(c.b)];
    b.gamma -= P * c.n;
    b.Pi -= P * c.chiB;
  }
}

}  // namespace

void ImpactWorkspace::reserve(int contacts) {
  if (contacts <= capacity_) return;
  capacity_ = std::max(contacts, 2 * capacity_);
  u.assign(std::size_t(capacity_), 0.0);
  active.assign(std::size_t(capacity_), 0);
  lcp.reserve(capacity_);
}

double normalVelocity(std::span<const ImpactBody> bodies, const ImpactContact& c) {
  double u = pointVelocity(bodies[std::size_t(c.a)], c.n, c.chiA);
  if (c.b >= 0) u -= pointVelocity(bodies[std::size_t(c.b)], c.n, c.chiB);
  return u;
}

double kineticEnergy(std::span<const ImpactBody> bodies) {
  double e = 0.0;
  for (const ImpactBody& b : bodies) {
    e += 0.5 * b.gamma.squaredNorm() / b.m + 0.5 * b.Pi.dot(b.Jinv * b.Pi);
  }
  return e;
}

ImpactOutcome resolveImpacts(std::span<ImpactBody> bodies, std::span<ImpactContact> contacts,
                             ImpactWorkspace& work, ImpactLaw law, int maxPasses) {
  ImpactOutcome out;
  const int nc = int(contacts.size());
  work.reserve(nc);
  const double energyBefore = kineticEnergy(bodies);
  for (ImpactContact& c : contacts) {
    c.impulse = 0.0;
    c.uBefore = normalVelocity(bodies, c);
  }
  for (int pass = 0;; ++pass) {
    // The approaching contacts of this pass.
    double fastest = 0.0;
    for (int k = 0; k < nc; ++k) {
      const double u = normalVelocity(bodies, contacts[std::size_t(k)]);
      work.u[std::size_t(k)] = u;
      if (-u > contacts[std::size_t(k)].uNoise) fastest = std::max(fastest, -u);
    }
    if (!(fastest > 0.0)) break;
    const double vTol = 1e-12 * fastest;
    auto approaches = [&](int k) {
      return work.u[std::size_t(k)] < -std::max(vTol, contacts[std::size_t(k)].uNoise);
    };
    int na = 0;
    if (law == ImpactLaw::Sequential) {
      // Only the fastest approaching contact (ties to the first listed).
      for (int k = 0; k < nc; ++k) {
        if (-work.u[std::size_t(k)] == fastest && approaches(k)) {
          work.active[0] = k;
          na = 1;
          break;
        }
      }
    } else {
      for (int k = 0; k < nc; ++k) {
        if (approaches(k)) work.active[std::size_t(na++)] = k;
      }
    }
    if (na == 0) break;
    if (pass >= maxPasses) {
      out.ok = false;
      out.what =
          "the simultaneous impact did not end (contacts still approach after the cap on "
          "generalized-reflection passes)";
      break;
    }
    ++out.passes;
    if (na == 1) {
      // One contact: lambda = -u / k in closed form (the LGVCI's jump for a plane).
      ImpactContact& c = contacts[std::size_t(work.active[0])];
      const double k = delassus(bodies, c, c);
      const double P = (1.0 + c.e) * (-work.u[std::size_t(work.active[0])] / k);
      applyImpulse(bodies, c, P);
      c.impulse += P;
      continue;
    }
    // The pass's LCP on the approaching contacts: the inelastic impulses lambda >= 0 with
    // w = D lambda + u >= 0, lambda.w = 0 (the projection of the velocity onto {u >= 0}).
    LcpSolver& lcp = work.lcp;
    for (int i = 0; i < na; ++i) {
      for (int j = 0; j <= i; ++j) {
        const double d = delassus(bodies, contacts[std::size_t(work.active[std::size_t(i)])],
                                  contacts[std::size_t(work.active[std::size_t(j)])]);
        lcp.M(i, j) = d;
        lcp.M(j, i) = d;
      }
      lcp.q(i) = work.u[std::size_t(work.active[std::size_t(i)])];
    }
    lcp.solve(na, 1e-13 * fastest);
    bool any = false;
    for (int i = 0; i < na; ++i) {
      if (!(lcp.x(i) > 0.0)) continue;
      ImpactContact& c = contacts[std::size_t(work.active[std::size_t(i)])];
      const double Pk = (1.0 + c.e) * lcp.x(i);
      applyImpulse(bodies, c, Pk);
      c.impulse += Pk;
      any = true;
    }
    if (!any) break;  // approaching contacts that no impulse can separate: round-off level
  }
  for (ImpactContact& c : contacts) c.uAfter = normalVelocity(bodies, c);
  out.energyLost = energyBefore - kineticEnergy(bodies);
  return out;
}

}  // namespace ricochet::contact
