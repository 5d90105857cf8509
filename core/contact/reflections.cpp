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

/// Cholesky factor of the leading n x n block of the passive rows/columns (row-major in L, stride
/// cap). False if the block is not positive definite to round-off.
bool cholesky(const std::vector<double>& D, int cap, const std::vector<int>& idx, int n,
              std::vector<double>& L) {
  double scale = 0.0;
  for (int i = 0; i < n; ++i) {
    scale = std::max(scale, D[std::size_t(idx[std::size_t(i)] * cap + idx[std::size_t(i)])]);
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= i; ++j) {
      double s = D[std::size_t(idx[std::size_t(i)] * cap + idx[std::size_t(j)])];
      for (int k = 0; k < j; ++k) s -= L[std::size_t(i * cap + k)] * L[std::size_t(j * cap + k)];
      if (i == j) {
        if (!(s > 1e-13 * scale)) return false;
        L[std::size_t(i * cap + i)] = std::sqrt(s);
      } else {
        L[std::size_t(i * cap + j)] = s / L[std::size_t(j * cap + j)];
      }
    }
  }
  return true;
}

/// Solves L L^T z = rhs (in place in z).
void choleskySolve(const std::vector<double>& L, int cap, int n, std::vector<double>& z) {
  for (int i = 0; i < n; ++i) {
    double s = z[std::size_t(i)];
    for (int k = 0; k < i; ++k) s -= L[std::size_t(i * cap + k)] * z[std::size_t(k)];
    z[std::size_t(i)] = s / L[std::size_t(i * cap + i)];
  }
  for (int i = n - 1; i >= 0; --i) {
    double s = z[std::size_t(i)];
    for (int k = i + 1; k < n; ++k) s -= L[std::size_t(k * cap + i)] * z[std::size_t(k)];
    z[std::size_t(i)] = s / L[std::size_t(i * cap + i)];
  }
}

}  // namespace

void ImpactWorkspace::reserve(int contacts) {
  if (contacts <= capacity_) return;
  capacity_ = std::max(contacts, 2 * capacity_);
  const std::size_t c = std::size_t(capacity_);
  D.assign(c * c, 0.0);
  L.assign(c * c, 0.0);
  u.assign(c, 0.0);
  w.assign(c, 0.0);
  lambda.assign(c, 0.0);
  z.assign(c, 0.0);
  active.assign(c, 0);
  passive.assign(c, 0);
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
  const int cap = work.capacity();
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
    // The pass's LCP on the approaching contacts (indices 0..na of `active`), by the active-set
    // method of Lawson and Hanson: grow the set of contacts with lambda > 0 by the most violated
    // one, solve the equality problem on it, step back to keep lambda >= 0.
    for (int i = 0; i < na; ++i) {
      for (int j = 0; j <= i; ++j) {
        const double d = delassus(bodies, contacts[std::size_t(work.active[std::size_t(i)])],
                                  contacts[std::size_t(work.active[std::size_t(j)])]);
        work.D[std::size_t(i * cap + j)] = d;
        work.D[std::size_t(j * cap + i)] = d;
      }
    }
    std::vector<double>& lambda = work.lambda;
    std::vector<double>& w = work.w;
    std::vector<double>& z = work.z;
    std::vector<int>& P = work.passive;
    std::vector<double> const& D = work.D;
    for (int i = 0; i < na; ++i) {
      lambda[std::size_t(i)] = 0.0;
      w[std::size_t(i)] = work.u[std::size_t(work.active[std::size_t(i)])];
    }
    // Scratch flags in L's last row would alias; use the sign of P membership instead.
    int np = 0;
    const double wTol = 1e-13 * fastest;
    auto inPassive = [&](int i) { return std::find(P.begin(), P.begin() + np, i) != P.begin() + np; };
    int excluded = -1;  // a contact found dependent on the passive ones, skipped this pass
    for (int outer = 0; outer < 4 * na + 8; ++outer) {
      int j = -1;
      double worst = -wTol;
      for (int i = 0; i < na; ++i) {
        if (i == excluded || inPassive(i)) continue;
        if (w[std::size_t(i)] < worst) {
          worst = w[std::size_t(i)];
          j = i;
        }
      }
      if (j < 0) break;
      P[std::size_t(np++)] = j;
      for (int inner = 0; inner < 4 * na + 8; ++inner) {
        if (!cholesky(D, cap, P, np, work.L)) {
          // Column j depends on the others (redundant contacts): its w is 0 at the optimum.
          --np;
          excluded = j;
          break;
        }
        for (int i = 0; i < np; ++i) z[std::size_t(i)] = -work.u[std::size_t(work.active[std::size_t(P[std::size_t(i)])])];
        choleskySolve(work.L, cap, np, z);
        double step = 1.0;
        bool feasible = true;
        for (int i = 0; i < np; ++i) {
          if (z[std::size_t(i)] <= 0.0) {
            feasible = false;
            const double li = lambda[std::size_t(P[std::size_t(i)])];
            step = std::min(step, li / (li - z[std::size_t(i)]));
          }
        }
        if (feasible) {
          for (int i = 0; i < np; ++i) lambda[std::size_t(P[std::size_t(i)])] = z[std::size_t(i)];
          break;
        }
        // Move towards z until a multiplier reaches 0, and release it.
        int kept = 0;
        for (int i = 0; i < np; ++i) {
          const int pi = P[std::size_t(i)];
          double& li = lambda[std::size_t(pi)];
          li += step * (z[std::size_t(i)] - li);
          if (li > 0.0 && !(z[std::size_t(i)] <= 0.0 && li <= 1e-15 * std::fabs(z[std::size_t(i)]))) {
            P[std::size_t(kept++)] = pi;
          } else {
            li = 0.0;
          }
        }
        np = kept;
        if (np == 0) break;
      }
      for (int i = 0; i < na; ++i) {
        double s = work.u[std::size_t(work.active[std::size_t(i)])];
        for (int k = 0; k < na; ++k) s += D[std::size_t(i * cap + k)] * lambda[std::size_t(k)];
        w[std::size_t(i)] = s;
      }
    }
    bool any = false;
    for (int i = 0; i < na; ++i) {
      if (!(lambda[std::size_t(i)] > 0.0)) continue;
      ImpactContact& c = contacts[std::size_t(work.active[std::size_t(i)])];
      const double Pk = (1.0 + c.e) * lambda[std::size_t(i)];
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
