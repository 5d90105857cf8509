#include "core/bodies/stepper.hpp"

#include "core/impact/restitution.hpp"
#include "core/numerics/roots.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::bodies {

BodiesStepper::BodiesStepper(std::shared_ptr<const WorldModel> model, double h, int pairGapIndex)
    : model_(std::move(model)), h_(h), pairGap_(pairGapIndex) {}

void BodiesStepper::prepare(Report& report) const {
  const std::size_t n = model_->bodies.size();
  StepWork& w = report.work;
  w.alpha.assign(n, 0.0);
  w.base.assign(n, BodyState{});
  w.end.assign(n, BodyState{});
  w.at.assign(n, BodyState{});
  w.atStamp.assign(n, -1);
  w.box.assign(n, Aabb{});
  w.still.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) w.still[i] = model_->bodies[i].fixed ? 1 : 0;
  w.impacts.assign(n, 0);
  w.moved.reserve(n);
  w.partners.reserve(n + 16);
  w.candidates.reserve(4 * n + 64);
  w.islandIndex.assign(n, -1);
  w.islandBodies.reserve(n);
  w.islandState.reserve(n);
  const std::size_t contacts = 4 * n + 64;
  w.islandContacts.reserve(contacts);
  w.contactOf.reserve(contacts);
  w.pointOf.reserve(contacts);
  w.manifoldOf.reserve(contacts);
  w.closingOf.reserve(contacts);
  w.wasHeld.reserve(contacts);
  w.held.reserve(contacts);
  w.group.assign(n, -1);
  w.groupBodyStart.reserve(n + 1);
  w.groupBodies.reserve(n);
  w.groupRowStart.reserve(n + 1);
  w.groupRows.reserve(contacts);
  w.parent.assign(n, 0);
  w.groupRowScratch.reserve(contacts);
  w.liftedScratch.reserve(contacts);
  w.groupStates.assign(n, BodyState{});
  w.touched.reserve(n);
  w.rowEnergy.reserve(contacts);
  w.heldWork.reserve(64, int(n));
  w.impulses.reserve(64);
  w.broad.reserve(int(n));
  report.impacts.resize(4 * n + 128);
}

const char* BodiesStepper::gapName(int gap) const {
  for (const Plane& p : model_->planes) {
    if (p.gap == gap) return p.name.c_str();
  }
  return "body";
}

double BodiesStepper::energy(const WorldState& s) const {
  double e = s.storedEnergy();
  for (std::size_t i = 0; i < model_->bodies.size(); ++i) {
    const Body& b = model_->bodies[i];
    e += kineticEnergy(b, s.bodies[i]) + potentialEnergy(*model_, b, s.bodies[i]);
  }
  return e;
}

bool BodiesStepper::settled(const WorldState& s) const {
  if (s.held.empty()) return false;
  for (std::size_t i = 0; i < model_->bodies.size(); ++i) {
    if (model_->bodies[i].fixed) continue;
    bool held = false;
    for (const HeldRow& r : s.held) held = held || r.a == int(i) || r.b == int(i);
    if (!held) return false;
  }
  return true;
}

namespace {

using contact::ImpactBody;
using contact::ImpactContact;
using contact::Manifold;
using contact::PairGap;
using contact::PartInfo;
using contact::Placement;
using Candidate = StepWork::Candidate;

constexpr double kTiny = std::numeric_limits<double>::denorm_min();

Placement placementOf(const Body& b, const BodyState& s) {
  Placement p;
  p.shape = &b.shape;
  p.x = s.x;
  p.R = s.R;
  return p;
}

/// The swept bounds of a body over the rest of the step: its bounding sphere at both ends of the
/// path, the box between them, lowered by the parabola's sag (g tau^2 / 8 below the chord).
Aabb sweptBox(const WorldModel& w, const Body& b, const BodyState& s0, const BodyState& s1,
              double tau) {
  Aabb box;
  box.lo = s0.x.cwiseMin(s1.x) - Vec3::Constant(b.reach);
  box.hi = s0.x.cwiseMax(s1.x) + Vec3::Constant(b.reach);
  if (!b.fixed) box.lo.z() -= 0.125 * w.g * tau * tau;
  return box;
}

/// |v| + |Omega| |rho| of a body point: the scale of its velocity's round-off, m/s.
double pointSpeed(const Body& b, const BodyState& s, const Vec3& rho) {
  if (b.fixed) return 0.0;
  return s.gamma.norm() / b.m + (b.Jinv * s.Pi).norm() * rho.norm();
}

/// True when a held row belongs to contact c (the same parts, the same plane).
bool rowOf(const HeldRow& r, const ContactRef& c) {
  return r.a == c.a && r.pa == c.pa && r.b == c.b && r.pb == c.pb && r.plane == c.plane;
}

/// One step's run: the buffers, the current event, and the operations on them.
class StepRun {
 public:
  StepRun(const WorldModel& model, double h, int pairGap, WorldState& state, Report& report)
      : m_(model), h_(h), pairGap_(pairGap), state_(state), r_(report), w_(report.work),
        n_(int(model.bodies.size())) {}

  RunStatus run();

 private:
  // --- groups of held bodies
  void buildGroups();
  int groupOf(int i) const { return w_.group[std::size_t(i)]; }
  /// The states of group g's bodies after tau seconds from their base, into w_.groupStates
  /// (cached for the last tau); lifted rows marked in w_.rowLifted when `final`.
  bool flowGroup(int g, double tau, bool final, std::vector<BodyState>& out);

  // --- states along the step
  /// Body i's state at lo + t (t measured from lo, so a body restarting at lo gets exactly t h).
  bool stateAt(int i, double lo, double t, BodyState& out) {
    const Body& b = m_.bodies[std::size_t(i)];
    if (b.fixed) {
      out = w_.base[std::size_t(i)];
      return true;
    }
    const double a = w_.alpha[std::size_t(i)];
    const double tau = (a == lo ? t : (lo - a) + t) * h_;
    if (tau == 0.0) {
      out = w_.base[std::size_t(i)];
      return true;
    }
    const int g = groupOf(i);
    if (g >= 0) {
      if (!(w_.cachedGroup == g && w_.cachedTau == tau)) {
        if (!flowGroup(g, tau, false, w_.groupStates)) return false;
        w_.cachedGroup = g;
        w_.cachedTau = tau;
      }
      out = w_.groupStates[std::size_t(i)];
      return true;
    }
    const FlowResult f = flowBody(m_, b, w_.base[std::size_t(i)], tau, out);
    if (f.pieces > 1) ++r_.subSteppedFlows;
    if (!f.ok) return flowFailed(i, lo + t, tau);
    return true;
  }

  bool flowFailed(int i, double alpha, double tau) {
    const BodyState& s = w_.base[std::size_t(i)];
    if (!s.Pi.allFinite() || !s.x.allFinite() || !s.gamma.allFinite() || !std::isfinite(tau)) {
      r_.fail(RunStatus::NonFinite, "", -1, alpha);
    } else {
      r_.fail(RunStatus::SolverFailed,
              "SolveF (the Cayley Newton solve for the relative rotation F) did not converge, "
              "even split into sub-steps",
              -1, alpha);
      r_.failure.with("body", i).with("sub-step", tau, "s").with(
          "|Omega|", (m_.bodies[std::size_t(i)].Jinv * s.Pi).norm(), "rad/s").with("tolerance", m_.tolerance);
    }
    return false;
  }

  void markMoved(int i) {
    if (std::find(w_.moved.begin(), w_.moved.end(), i) == w_.moved.end()) w_.moved.push_back(i);
    w_.broad.moved(i);
  }

  /// Restarts body i (free) at fraction `alpha` from state s.
  bool restartBody(int i, double alpha, const BodyState& s) {
    w_.alpha[std::size_t(i)] = alpha;
    w_.base[std::size_t(i)] = s;
    const double tau = (1.0 - alpha) * h_;
    const FlowResult f = flowBody(m_, m_.bodies[std::size_t(i)], s, tau, w_.end[std::size_t(i)]);
    if (f.pieces > 1) ++r_.subSteppedFlows;
    if (!f.ok) return flowFailed(i, alpha, tau);
    w_.box[std::size_t(i)] = sweptBox(m_, m_.bodies[std::size_t(i)], s, w_.end[std::size_t(i)], tau);
    markMoved(i);
    return true;
  }

  /// Restarts group g at `alpha` from its members' states in w_.at.
  bool restartGroup(int g, double alpha) {
    const int from = w_.groupBodyStart[std::size_t(g)], to = w_.groupBodyStart[std::size_t(g) + 1];
    for (int q = from; q < to; ++q) {
      const int i = w_.groupBodies[std::size_t(q)];
      w_.alpha[std::size_t(i)] = alpha;
      w_.base[std::size_t(i)] = w_.at[std::size_t(i)];
    }
    w_.cachedGroup = -1;
    const double tau = (1.0 - alpha) * h_;
    if (!flowGroup(g, tau, true, w_.end)) return false;
    for (int q = from; q < to; ++q) {
      const int i = w_.groupBodies[std::size_t(q)];
      w_.box[std::size_t(i)] =
          sweptBox(m_, m_.bodies[std::size_t(i)], w_.base[std::size_t(i)], w_.end[std::size_t(i)], tau);
      markMoved(i);
    }
    return true;
  }

  // --- gaps
  /// Gap of the vertices of a polyhedron part on a plane that no held row holds, m.
  double unheldVertexGap(const ContactRef& c, const BodyState& sa, int* vertex = nullptr) {
    const Body& A = m_.bodies[std::size_t(c.a)];
    const Plane& p = m_.planes[std::size_t(c.plane)];
    const se3::PolyhedronPart& poly = A.shape.polyhedra[std::size_t(A.parts[std::size_t(c.pa)].index)];
    const Vec3 u = sa.R.transpose() * p.n;
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < int(poly.vertices.size()); ++k) {
      bool held = false;
      for (const HeldRow& r : w_.held) {
        held = held || (r.kind == RowKind::VertexPlane && r.vertex == k && rowOf(r, c));
      }
      if (held) continue;
      const double d = u.dot(poly.vertices[std::size_t(k)]);
      if (d < best) {
        best = d;
        if (vertex) *vertex = k;
      }
    }
    return (p.n.dot(sa.x) - p.offset) + best - poly.epsilon;
  }

  /// Gap of contact c with A in state sa and B in state sb (ignored for a plane).
  double gapOf(const ContactRef& c, const BodyState& sa, const BodyState& sb, PairGap* detail = nullptr) {
    const Body& A = m_.bodies[std::size_t(c.a)];
    const PartInfo& pa = A.parts[std::size_t(c.pa)];
    if (c.b < 0) {
      if (c.excludeHeld) return unheldVertexGap(c, sa);
      const Plane& p = m_.planes[std::size_t(c.plane)];
      const contact::PlaneGap g = contact::planeGap(placementOf(A, sa), pa, p.n, p.offset);
      if (!g.ok) {
        // Phi is unknown here: the caller fails the step (supportFailure()).
        unsolved_ = {c.a, c.pa, g.iterations, g.residual};
        return std::numeric_limits<double>::quiet_NaN();
      }
      return g.gap;
    }
    const Body& B = m_.bodies[std::size_t(c.b)];
    const PairGap g = contact::pairGap(placementOf(A, sa), pa, placementOf(B, sb),
                                       B.parts[std::size_t(c.pb)], sa.x - sb.x);
    if (detail) *detail = g;
    return g.gap;
  }

  double endGap(const ContactRef& c) {
    return gapOf(c, w_.end[std::size_t(c.a)], w_.end[std::size_t(c.b < 0 ? c.a : c.b)]);
  }

  bool gapAt(const ContactRef& c, double lo, double t, double& gap, BodyState& sa, BodyState& sb) {
    if (!stateAt(c.a, lo, t, sa)) return false;
    if (c.b >= 0 && !stateAt(c.b, lo, t, sb)) return false;
    unsolved_ = {};
    gap = gapOf(c, sa, c.b >= 0 ? sb : sa);
    if (std::isnan(gap) && unsolved_.body >= 0) return supportFailure(lo + t);
    return true;
  }

  /// The gap below which contact c counts as closed with A at sa and B at sb: the model's
  /// closedGap, or the round-off of the coordinates the gap is computed from when they are large
  /// (a body that slid 2.6e5 m down a tilted plane computes its gap to about 1e-10 m).
  double closedFor(const ContactRef& c, const BodyState& sa, const BodyState& sb) const {
    double scale = sa.x.cwiseAbs().maxCoeff();
    scale += c.b >= 0 ? sb.x.cwiseAbs().maxCoeff() : std::fabs(m_.planes[std::size_t(c.plane)].offset);
    return std::max(m_.closedGap, 16.0 * 2.220446049250313e-16 * scale);
  }

  /// A support point that did not converge (an intersection part's crease solve): the gap is
  /// unknown, so the step fails rather than run on a guess.
  bool supportFailure(double alpha) {
    r_.fail(RunStatus::SolverFailed,
            "the support point of an intersection part (two ellipsoids) did not converge, so Phi "
            "is unknown there",
            -1, alpha);
    r_.failure.with("body", unsolved_.body)
        .with("part", unsolved_.part)
        .with("iterations", unsolved_.iterations)
        .with("crease KKT residual", unsolved_.residual);
    unsolved_ = {};
    return false;
  }

  struct Unsolved {
    int body = -1, part = -1, iterations = 0;
    double residual = 0.0;
  };
  Unsolved unsolved_;  // set by gapOf when a support point failed

  /// Relative normal velocity of contact c at states sa, sb (m/s; negative: approaching), from
  /// the momenta, at its (first) contact point; `noise` gets its round-off floor.
  double approachOf(const ContactRef& c, const BodyState& sa, const BodyState& sb, double& noise) {
    const Body& A = m_.bodies[std::size_t(c.a)];
    if (c.b < 0) {
      const Plane& p = m_.planes[std::size_t(c.plane)];
      Vec3 rho;
      if (c.excludeHeld) {
        int k = 0;
        unheldVertexGap(c, sa, &k);
        const se3::PolyhedronPart& poly =
            A.shape.polyhedra[std::size_t(A.parts[std::size_t(c.pa)].index)];
        rho = poly.vertices[std::size_t(k)] - poly.epsilon * (sa.R.transpose() * p.n);
      } else {
        rho = contact::planeGap(placementOf(A, sa), A.parts[std::size_t(c.pa)], p.n, p.offset).rho;
      }
      const Vec3 chi = rho.cross(sa.R.transpose() * p.n);
      noise = contact::noiseFloor(pointSpeed(A, sa, rho), 0.0);
      return p.n.dot(sa.gamma) / A.m + (A.Jinv * chi).dot(sa.Pi);
    }
    const Body& B = m_.bodies[std::size_t(c.b)];
    PairGap g;
    gapOf(c, sa, sb, &g);
    double u = 0.0, speedA = 0.0, speedB = 0.0;
    if (!A.fixed) {
      const Vec3& rho = g.rhoA;
      const Vec3 chi = rho.cross(sa.R.transpose() * g.normal);
      u += g.normal.dot(sa.gamma) / A.m + (A.Jinv * chi).dot(sa.Pi);
      speedA = pointSpeed(A, sa, rho);
    }
    if (!B.fixed) {
      const Vec3& rho = g.rhoB;
      const Vec3 chi = rho.cross(sb.R.transpose() * g.normal);
      u -= g.normal.dot(sb.gamma) / B.m + (B.Jinv * chi).dot(sb.Pi);
      speedB = pointSpeed(B, sb, rho);
    }
    noise = contact::noiseFloor(speedA, speedB);
    return u;
  }

  // --- candidates
  void addPairCandidates(int a, int b);
  void addPlaneCandidates(int a);
  bool considerCandidate(ContactRef c);
  /// For a contact open at both ends of the rest of the step: whether its gap can dip below zero
  /// in between (a corner of a turning body sweeping through a wall), from a bound on the gap's
  /// curvature and samples where the bound cannot rule it out. On a dip, `cutT` is the first
  /// sample found closed (fraction after lo) and `cutGap` its gap. False on a failed flow.
  bool findDip(const ContactRef& c, double g1, double& cutT, double& cutGap);
  /// A bound on |d2 gap/dt2| of contact c along the rest of the step, m/s^2.
  double curvatureBound(const ContactRef& c) const;
  bool collectFor(int i);
  void dropCandidatesOf(int i) {
    auto& cs = w_.candidates;
    cs.erase(std::remove_if(cs.begin(), cs.end(),
                            [&](const Candidate& k) { return k.c.a == i || k.c.b == i; }),
             cs.end());
  }
  bool timeCandidate(Candidate& k);
  bool locateRoot(const ContactRef& c, double lo, double t0, double g0, double tEnd, double gEnd,
                  double& t);

  // --- events
  bool processEvent(const Candidate& k);
  bool islandAdd(int i, double lo, double t);
  bool closeIsland(double lo, double t);
  void islandContactsOf(const ContactRef& c);
  /// Closing acceleration of an island contact in the free motion: how hard the two sides are
  /// pressed together when nothing else acts (m/s^2, > 0: pressed). rA, rB: the material points
  /// of the contact from each centre of mass, world.
  double closingAcceleration(const ContactRef& c, const Vec3& n, const Vec3& rA, const Vec3& rB) const;
  /// Holds the event's slow contacts and lets go of the fast ones; true when any hold changed.
  /// `unresolved`: the event gave no impulse (the path presses in, the momenta do not approach);
  /// `event`: the event's candidate (its path's press, when it has one).
  bool updateHolds(double alpha, bool unresolved, const Candidate& event);
  /// Gives back the energy a held elastic contact kept, as a separating impulse (J).
  void releaseStored(const HeldRow& row, std::vector<BodyState>& s);

  const WorldModel& m_;
  double h_;
  int pairGap_;
  WorldState& state_;
  Report& r_;
  StepWork& w_;
  int n_;
};

// ---------------------------------------------------------------------------------------------
// Groups of held bodies.

void StepRun::buildGroups() {
  std::vector<int>& parent = w_.parent;
  for (int i = 0; i < n_; ++i) parent[std::size_t(i)] = i;
  auto find = [&](int i) {
    while (parent[std::size_t(i)] != i) i = parent[std::size_t(i)] = parent[std::size_t(parent[std::size_t(i)])];
    return i;
  };
  for (const HeldRow& r : w_.held) {
    if (r.b >= 0 && !m_.bodies[std::size_t(r.b)].fixed) {
      const int x = find(r.a), y = find(r.b);
      if (x != y) parent[std::size_t(std::max(x, y))] = std::min(x, y);
    }
  }
  std::fill(w_.group.begin(), w_.group.end(), -1);
  w_.groupBodyStart.clear();
  w_.groupBodies.clear();
  w_.groupRowStart.clear();
  w_.groupRows.clear();
  // Groups in order of their smallest body; a body is in a group when a held row touches it.
  int count = 0;
  for (int i = 0; i < n_; ++i) {
    bool held = false;
    for (const HeldRow& r : w_.held) held = held || r.a == i || r.b == i;
    if (!held || m_.bodies[std::size_t(i)].fixed) continue;
    const int root = find(i);
    if (w_.group[std::size_t(root)] < 0) w_.group[std::size_t(root)] = count++;
    w_.group[std::size_t(i)] = w_.group[std::size_t(root)];
  }
  for (int g = 0; g < count; ++g) {
    w_.groupBodyStart.push_back(int(w_.groupBodies.size()));
    for (int i = 0; i < n_; ++i) {
      if (w_.group[std::size_t(i)] == g) w_.groupBodies.push_back(i);
    }
    w_.groupRowStart.push_back(int(w_.groupRows.size()));
    for (int k = 0; k < int(w_.held.size()); ++k) {
      if (w_.group[std::size_t(w_.held[std::size_t(k)].a)] == g) w_.groupRows.push_back(k);
    }
  }
  w_.groupBodyStart.push_back(int(w_.groupBodies.size()));
  w_.groupRowStart.push_back(int(w_.groupRows.size()));
  w_.cachedGroup = -1;
}

bool StepRun::flowGroup(int g, double tau, bool final, std::vector<BodyState>& out) {
  const int b0 = w_.groupBodyStart[std::size_t(g)], b1 = w_.groupBodyStart[std::size_t(g) + 1];
  const int r0 = w_.groupRowStart[std::size_t(g)], r1 = w_.groupRowStart[std::size_t(g) + 1];
  w_.groupRowScratch.clear();
  for (int q = r0; q < r1; ++q) w_.groupRowScratch.push_back(w_.held[std::size_t(w_.groupRows[std::size_t(q)])]);
  const std::span<const int> members(w_.groupBodies.data() + b0, std::size_t(b1 - b0));
  const ConstrainedResult c = constrainedFlow(m_, members, w_.groupRowScratch, w_.base, tau, out,
                                              w_.liftedScratch, w_.heldWork);
  if (!c.ok) {
    r_.fail(RunStatus::SolverFailed, c.what, -1, 1.0);
    r_.failure.with("held contacts", double(r1 - r0))
        .with("iterations", c.iterations)
        .with("largest gap left", c.residual, "m");
    return false;
  }
  if (final) {
    for (int q = r0; q < r1; ++q) {
      w_.held[std::size_t(w_.groupRows[std::size_t(q)])].lifted = w_.liftedScratch[std::size_t(q - r0)] != 0;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Candidates.

void StepRun::addPlaneCandidates(int a) {
  const Body& A = m_.bodies[std::size_t(a)];
  if (A.fixed) return;
  const BodyState& s0 = w_.base[std::size_t(a)];
  const BodyState& s1 = w_.end[std::size_t(a)];
  const double tau = (1.0 - w_.alpha[std::size_t(a)]) * h_;
  const double sag = 0.125 * m_.g * tau * tau;
  for (int k = 0; k < int(m_.planes.size()); ++k) {
    const Plane& p = m_.planes[std::size_t(k)];
    const double low = std::min(p.n.dot(s0.x), p.n.dot(s1.x)) - std::fabs(p.n.z()) * sag - p.offset;
    if (low - A.reach > 0.0) continue;
    for (int q = 0; q < int(A.parts.size()); ++q) {
      const PartInfo& part = A.parts[std::size_t(q)];
      if (A.parts.size() > 1) {
        const double c0 = p.n.dot(s0.x + s0.R * part.centre), c1 = p.n.dot(s1.x + s1.R * part.centre);
        if (std::min(c0, c1) - std::fabs(p.n.z()) * sag - p.offset - part.radius > 0.0) continue;
      }
      ContactRef c;
      c.a = a;
      c.pa = q;
      c.plane = k;
      if (!considerCandidate(c)) return;
    }
  }
}

void StepRun::addPairCandidates(int a, int b) {
  if (m_.bodies[std::size_t(a)].fixed && m_.bodies[std::size_t(b)].fixed) return;
  // Keep a movable body as A, so a contact's normal points towards a body that moves.
  if (m_.bodies[std::size_t(a)].fixed) std::swap(a, b);
  const Body& BA = m_.bodies[std::size_t(a)];
  const Body& BB = m_.bodies[std::size_t(b)];
  const bool many = BA.parts.size() > 1 || BB.parts.size() > 1;
  auto partBox = [&](int body, const PartInfo& part) {
    const BodyState& s0 = w_.base[std::size_t(body)];
    const BodyState& s1 = w_.end[std::size_t(body)];
    const Vec3 c0 = s0.x + s0.R * part.centre, c1 = s1.x + s1.R * part.centre;
    Aabb box;
    box.lo = c0.cwiseMin(c1) - Vec3::Constant(part.radius);
    box.hi = c0.cwiseMax(c1) + Vec3::Constant(part.radius);
    const double tau = (1.0 - w_.alpha[std::size_t(body)]) * h_;
    if (!m_.bodies[std::size_t(body)].fixed) box.lo.z() -= 0.125 * m_.g * tau * tau;
    return box;
  };
  for (int p = 0; p < int(BA.parts.size()); ++p) {
    for (int q = 0; q < int(BB.parts.size()); ++q) {
      if (many && !partBox(a, BA.parts[std::size_t(p)]).overlaps(partBox(b, BB.parts[std::size_t(q)]))) {
        continue;
      }
      ContactRef c;
      c.a = a;
      c.pa = p;
      c.b = b;
      c.pb = q;
      if (!considerCandidate(c)) return;
    }
  }
}

bool StepRun::considerCandidate(ContactRef c) {
  // A held contact is not a candidate; a polyhedron held on a plane by some vertices still is,
  // for its other vertices.
  for (const HeldRow& r : w_.held) {
    if (!rowOf(r, c)) continue;
    if (r.kind == RowKind::VertexPlane) {
      c.excludeHeld = true;
    } else {
      return true;
    }
  }
  unsolved_ = {};
  const double g1 = endGap(c);
  if (std::isnan(g1) && unsolved_.body >= 0) return supportFailure(1.0);
  if (!std::isfinite(g1)) {
    r_.fail(RunStatus::NonFinite, "", -1, 1.0);
    return false;
  }
  double cutT = -1.0, cutGap = 0.0;
  if (g1 > 0.0) {
    if (!findDip(c, g1, cutT, cutGap)) return r_.status == RunStatus::Ok;
    if (!(cutT >= 0.0)) return true;
  }
  for (const Candidate& k : w_.candidates) {
    if (k.c.sameAs(c)) return true;  // already listed (both bodies of a pair moved in one event)
  }
  Candidate k;
  k.c = c;
  k.cutT = cutT;
  k.cutGap = cutGap;
  w_.candidates.push_back(k);
  return true;
}

double StepRun::curvatureBound(const ContactRef& c) const {
  // A material point at distance r from the centre of mass accelerates by at most
  // |a_com| + |omega_dot| r + |omega|^2 r; the gap of a convex part moves no faster than its
  // farthest point. Torque-free: omega_dot = J^-1 (Pi x Omega) in the body frame.
  auto term = [&](int body, int part) {
    const Body& b = m_.bodies[std::size_t(body)];
    if (b.fixed) return 0.0;
    const BodyState& s = w_.base[std::size_t(body)];
    const Vec3 omega = b.Jinv * s.Pi;
    const double r = b.parts[std::size_t(part)].centre.norm() + b.parts[std::size_t(part)].radius;
    const double spin = (b.Jinv * s.Pi.cross(omega)).norm() + omega.squaredNorm();
    return spin * r;
  };
  double bound = term(c.a, c.pa);
  if (c.b >= 0) {
    bound += term(c.b, c.pb);
    // Gravity moves both sides alike unless one of them is fixed.
    if (m_.bodies[std::size_t(c.b)].fixed) bound += m_.g;
  } else {
    bound += m_.g * std::fabs(m_.planes[std::size_t(c.plane)].n.z());
  }
  return 1.5 * bound;  // margin for the discrete path against the continuous bound
}

bool StepRun::findDip(const ContactRef& c, double g1, double& cutT, double& cutGap) {
  cutT = -1.0;
  const double lo = c.b >= 0 ? std::max(w_.alpha[std::size_t(c.a)], w_.alpha[std::size_t(c.b)])
                             : w_.alpha[std::size_t(c.a)];
  const double tEnd = 1.0 - lo;
  const double B = curvatureBound(c);
  // On [ta, tb] (fractions after lo) with gaps ga, gb > 0 the gap is at least the chord minus
  // B dt^2 / 8 (dt = (tb - ta) h): no dip when that stays positive.
  auto safe = [&](double ta, double ga, double tb, double gb) {
    const double dt = (tb - ta) * h_;
    return std::min(ga, gb) - 0.125 * B * dt * dt > 0.0;
  };
  BodyState sa, sb;
  double g0;
  if (!gapAt(c, lo, 0.0, g0, sa, sb)) return false;
  if (!(g0 > closedFor(c, sa, c.b >= 0 ? sb : sa))) return true;  // closed at its start: timeCandidate's business
  if (safe(0.0, g0, tEnd, g1)) return true;
  // Bisect the intervals the bound cannot clear, in time order, to a depth of 2^-14 of a step.
  struct Span {
    double ta, ga, tb, gb;
    int depth;
  };
  Span stack[64];
  int top = 0;
  stack[top++] = {0.0, g0, tEnd, g1, 0};
  while (top > 0) {
    const Span s = stack[--top];
    const double tm = 0.5 * (s.ta + s.tb);
    double gm;
    if (!gapAt(c, lo, tm, gm, sa, sb)) return false;
    if (!(gm > 0.0)) {
      cutT = tm;
      cutGap = gm;
      return true;
    }
    if (s.depth >= 14) continue;
    // Later half first on the stack, so the earlier half is examined first.
    if (!safe(tm, gm, s.tb, s.gb) && top < 63) stack[top++] = {tm, gm, s.tb, s.gb, s.depth + 1};
    if (!safe(s.ta, s.ga, tm, gm) && top < 63) stack[top++] = {s.ta, s.ga, tm, gm, s.depth + 1};
  }
  return true;
}

bool StepRun::collectFor(int i) {
  addPlaneCandidates(i);
  if (r_.status != RunStatus::Ok) return false;
  w_.partners.clear();
  w_.broad.query(w_.box, w_.box[std::size_t(i)], i, w_.partners);
  for (const int j : w_.partners) {
    if (m_.bodies[std::size_t(i)].fixed && m_.bodies[std::size_t(j)].fixed) continue;
    addPairCandidates(std::min(i, j), std::max(i, j));
    if (r_.status != RunStatus::Ok) return false;
  }
  return true;
}

bool StepRun::locateRoot(const ContactRef& c, double lo, double t0, double g0, double tEnd,
                         double gEnd, double& t) {
  BodyState sa, sb;
  bool solved = true;
  auto gap = [&](double tt) {
    if (!solved) return -1.0;
    double g;
    if (!gapAt(c, lo, tt, g, sa, sb)) {
      solved = false;
      return -1.0;
    }
    // Exactly 0 is inadmissible (the admissible set is gap > 0): the smallest negative number
    // keeps the bracket shrinking to the tolerance, as the one-body LGVCI does.
    return g > 0.0 ? g : std::min(g, -kTiny);
  };
  const double tol = m_.tolerance;
  if (m_.impactTimeSolver == se3::ImpactTimeSolver::Brent) {
    const RootResult root = brentRoot(gap, t0, tEnd, g0, std::min(gEnd, -kTiny), tol, 0.0,
                                      m_.maxRootIterations);
    if (!solved) return false;
    if (root.converged) {
      const double tt = root.fx > 0.0 ? root.x : (root.x == root.lo ? root.hi : root.lo);
      double gt;
      if (!gapAt(c, lo, tt, gt, sa, sb)) return false;
      if (gt > 0.0 && tt < tEnd) {
        t = tt;
        return true;
      }
    }
  }
  // The paper's bisection: keep the admissible side, stop at the tolerance width.
  double a = t0, b = tEnd;
  for (int it = 0; b - a > tol; ++it) {
    const double mid = 0.5 * (a + b);
    if (!(mid > a && mid < b)) break;
    if (it >= m_.maxRootIterations) {
      r_.fail(RunStatus::SolverFailed, "bisection for the impact time did not reach the tolerance width",
              -1, lo + mid);
      r_.failure.with("iterations", it).with("width left", b - a).with("tolerance", tol);
      return false;
    }
    double g;
    if (!gapAt(c, lo, mid, g, sa, sb)) return false;
    if (g > 0.0) {
      a = mid;
      if (g <= tol) break;
    } else {
      b = mid;
    }
  }
  t = a;
  return true;
}

bool StepRun::timeCandidate(Candidate& k) {
  const ContactRef& c = k.c;
  const double lo = c.b >= 0 ? std::max(w_.alpha[std::size_t(c.a)], w_.alpha[std::size_t(c.b)])
                             : w_.alpha[std::size_t(c.a)];
  k.lo = lo;
  k.timed = true;
  const bool cut = k.cutT >= 0.0;
  const double g1 = cut ? k.cutGap : endGap(c);
  const double tEnd = cut ? k.cutT : 1.0 - lo;
  BodyState sa, sb;
  double g0;
  if (!gapAt(c, lo, 0.0, g0, sa, sb)) return false;
  const double closedGap = closedFor(c, sa, c.b >= 0 ? sb : sa);
  const bool closed = g0 <= closedGap;
  double noise = 0.0;
  const double u = closed ? approachOf(c, sa, c.b >= 0 ? sb : sa, noise) : -1.0;
  const bool approaching = u < -noise;
  if (closed && approaching && !(g0 > 0.0)) {
    // Touching and approaching at lo: the impact is there.
    k.t = 0.0;
    k.alpha = lo;
    k.closedAtLo = true;
    return true;
  }
  if (!closed || approaching) {
    // A crossing: the first root of the gap along the flow.
    double t;
    if (!locateRoot(c, lo, 0.0, g0, tEnd, g1, t)) return false;
    k.t = t;
    k.alpha = lo + t;
    k.closedAtLo = false;
    return true;
  }
  // Closed and not approaching: touching at rest stays (round-off below the closed gap), and a
  // contact that is opening along the step is leaving ...
  if (g1 >= -closedGap || g1 > g0) {
    k.timed = false;  // not an event
    k.alpha = 2.0;
    return true;
  }
  // ... otherwise the path leaves and comes back within the step: find where the gap has
  // opened beyond its value at lo, then the root after it.
  const double open = std::max(g0, 0.0);
  for (int e = 1; e <= 60; ++e) {
    const double t = std::ldexp(tEnd, -e);
    double g;
    if (!gapAt(c, lo, t, g, sa, sb)) return false;
    if (g > open) {
      double root;
      if (!locateRoot(c, lo, t, g, tEnd, g1, root)) return false;
      k.t = root;
      k.alpha = lo + root;
      k.closedAtLo = false;
      return true;
    }
  }
  // Pressed together at no approach speed for the whole step: an event at lo that holds it.
  k.t = 0.0;
  k.alpha = lo;
  k.closedAtLo = true;
  const double tau = tEnd * h_;
  k.pressAcceleration = tau > 0.0 ? std::max(0.0, -2.0 * (g1 - std::max(g0, 0.0)) / (tau * tau)) : 0.0;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Events.

bool StepRun::islandAdd(int i, double lo, double t) {
  if (w_.islandIndex[std::size_t(i)] >= 0) return true;
  if (!stateAt(i, lo, t, w_.at[std::size_t(i)])) return false;
  w_.islandIndex[std::size_t(i)] = int(w_.islandBodies.size());
  w_.islandBodies.push_back(i);
  // A held group moves as one: its other bodies join too.
  const int g = groupOf(i);
  if (g >= 0) {
    for (int q = w_.groupBodyStart[std::size_t(g)]; q < w_.groupBodyStart[std::size_t(g) + 1]; ++q) {
      if (!islandAdd(w_.groupBodies[std::size_t(q)], lo, t)) return false;
    }
  }
  return true;
}

double StepRun::closingAcceleration(const ContactRef& c, const Vec3& n, const Vec3& rA,
                                    const Vec3& rB) const {
  // The acceleration of each side's contact point in the free motion: gravity (none for a body
  // held in a group: it is supported), plus the rigid body's omega_dot x r + omega x (omega x r)
  // with Euler's torque-free omega_dot (J omega_dot = Pi x Omega in the body frame). A vertex
  // grazing a wall while the body turns is pressed by the last term alone.
  auto pointAcceleration = [&](int body, const Vec3& r) {
    const Body& b = m_.bodies[std::size_t(body)];
    if (b.fixed) return Vec3(Vec3::Zero());
    const BodyState& s = w_.at[std::size_t(body)];
    const Vec3 omegaBody = b.Jinv * s.Pi;
    const Vec3 omega = s.R * omegaBody;
    const Vec3 omegaDot = s.R * (b.Jinv * s.Pi.cross(omegaBody));
    Vec3 a = omegaDot.cross(r) + omega.cross(omega.cross(r));
    if (groupOf(body) < 0) a.z() -= m_.g;
    return a;
  };
  const Vec3 aA = pointAcceleration(c.a, rA);
  const Vec3 aB = c.b >= 0 ? pointAcceleration(c.b, rB) : Vec3(Vec3::Zero());
  return -n.dot(aA - aB);
}

void StepRun::islandContactsOf(const ContactRef& c) {
  const Body& A = m_.bodies[std::size_t(c.a)];
  const BodyState& sa = w_.at[std::size_t(c.a)];
  Manifold man;
  if (c.b < 0) {
    const Plane& p = m_.planes[std::size_t(c.plane)];
    contact::planeManifold(placementOf(A, sa), A.parts[std::size_t(c.pa)], p.n, p.offset,
                           closedFor(c, sa, sa), man);
  } else {
    const Body& B = m_.bodies[std::size_t(c.b)];
    const BodyState& sb = w_.at[std::size_t(c.b)];
    PairGap g;
    gapOf(c, sa, sb, &g);
    contact::pairManifold(placementOf(A, sa), A.parts[std::size_t(c.pa)], placementOf(B, sb),
                          B.parts[std::size_t(c.pb)], g, closedFor(c, sa, sb), man);
  }
  const std::int64_t keyB = c.b >= 0 ? std::int64_t(c.b) : planeIndex(c.plane);
  const double e = restitutionOf(m_, c.a, keyB);
  ContactRef plain = c;
  plain.excludeHeld = false;
  for (int k = 0; k < man.count; ++k) {
    const contact::ContactPoint& p = man.points[std::size_t(k)];
    ImpactContact ic;
    ic.a = w_.islandIndex[std::size_t(c.a)];
    ic.n = man.normal;
    ic.chiA = p.rhoA.cross(sa.R.transpose() * man.normal);
    ic.b = -1;
    double speedB = 0.0;
    if (c.b >= 0 && !m_.bodies[std::size_t(c.b)].fixed) {
      const BodyState& sb = w_.at[std::size_t(c.b)];
      ic.b = w_.islandIndex[std::size_t(c.b)];
      ic.chiB = p.rhoB.cross(sb.R.transpose() * man.normal);
      speedB = pointSpeed(m_.bodies[std::size_t(c.b)], sb, p.rhoB);
    }
    ic.e = e;
    ic.uNoise = contact::noiseFloor(pointSpeed(A, sa, p.rhoA), speedB);
    w_.islandContacts.push_back(ic);
    w_.contactOf.push_back(plain);
    w_.pointOf.push_back(p.pointA);
    w_.manifoldOf.push_back(p);
    // The material point: a polyhedron's vertex (the centre of its rounding), else the contact
    // point itself.
    Vec3 rA = p.pointA - sa.x;
    if (p.vertexA >= 0) {
      const se3::PolyhedronPart& poly = A.shape.polyhedra[std::size_t(A.parts[std::size_t(c.pa)].index)];
      rA = sa.R * poly.vertices[std::size_t(p.vertexA)];
    }
    const Vec3 rB = c.b >= 0 ? Vec3(p.pointB - w_.at[std::size_t(c.b)].x) : Vec3(Vec3::Zero());
    w_.closingOf.push_back(closingAcceleration(c, man.normal, rA, rB));
  }
}

bool StepRun::closeIsland(double lo, double t) {
  // Breadth-first over the bodies of the island: every contact of an island body that is closed
  // at the event joins, with the movable body on its other side.
  for (std::size_t q = 0; q < w_.islandBodies.size(); ++q) {
    const int i = w_.islandBodies[q];
    const Body& A = m_.bodies[std::size_t(i)];
    const BodyState si = w_.at[std::size_t(i)];
    for (int k = 0; k < int(m_.planes.size()); ++k) {
      const Plane& p = m_.planes[std::size_t(k)];
      ContactRef any;
      any.a = i;
      any.plane = k;
      if (p.n.dot(si.x) - p.offset - A.reach > closedFor(any, si, si)) continue;
      for (int pa = 0; pa < int(A.parts.size()); ++pa) {
        ContactRef c;
        c.a = i;
        c.pa = pa;
        c.plane = k;
        if (gapOf(c, si, si) <= closedFor(c, si, si)) islandContactsOf(c);
      }
    }
    w_.partners.clear();
    w_.broad.query(w_.box, w_.box[std::size_t(i)], i, w_.partners);
    for (const int j : w_.partners) {
      const Body& B = m_.bodies[std::size_t(j)];
      // Each pair once: from its first island body.
      if (w_.islandIndex[std::size_t(j)] >= 0 && w_.islandIndex[std::size_t(j)] < int(q)) continue;
      BodyState sj;
      if (w_.islandIndex[std::size_t(j)] >= 0) {
        sj = w_.at[std::size_t(j)];
      } else if (!stateAt(j, lo, t, sj)) {
        return false;
      }
      ContactRef pair;
      pair.a = i;
      pair.b = j;
      if ((si.x - sj.x).norm() - A.reach - B.reach > closedFor(pair, si, sj)) continue;
      for (int pa = 0; pa < int(A.parts.size()); ++pa) {
        for (int pb = 0; pb < int(B.parts.size()); ++pb) {
          ContactRef c;
          c.a = i;
          c.pa = pa;
          c.b = j;
          c.pb = pb;
          if (A.fixed) {
            std::swap(c.a, c.b);
            std::swap(c.pa, c.pb);
          }
          const BodyState& sa = c.a == i ? si : sj;
          const BodyState& sb = c.a == i ? sj : si;
          if (gapOf(c, sa, sb) > closedFor(c, sa, sb)) continue;
          if (!B.fixed && !islandAdd(j, lo, t)) return false;
          islandContactsOf(c);
        }
      }
    }
  }
  return true;
}

void StepRun::releaseStored(const HeldRow& row, std::vector<BodyState>& s) {
  if (!(row.stored > 0.0)) return;
  const BodyState& sa = s[std::size_t(row.a)];
  const BodyState& sb = s[std::size_t(row.b >= 0 ? row.b : row.a)];
  const RowValue v = evaluateRow(m_, row, sa, sb);
  const double u = rowVelocity(m_, v, row, sa, sb);
  const Body& A = m_.bodies[std::size_t(row.a)];
  double k = v.n.squaredNorm() / A.m + v.chiA.dot(A.Jinv * v.chiA);
  if (row.b >= 0 && !m_.bodies[std::size_t(row.b)].fixed) {
    const Body& B = m_.bodies[std::size_t(row.b)];
    k += v.n.squaredNorm() / B.m + v.chiB.dot(B.Jinv * v.chiB);
  }
  // Kinetic energy gained by an impulse P along the row: P u + P^2 k / 2 = stored.
  const double P = (-u + std::sqrt(u * u + 2.0 * k * row.stored)) / k;
  BodyState& a = s[std::size_t(row.a)];
  a.gamma += P * v.n;
  a.Pi += P * v.chiA;
  if (row.b >= 0 && !m_.bodies[std::size_t(row.b)].fixed) {
    BodyState& b = s[std::size_t(row.b)];
    b.gamma -= P * v.n;
    b.Pi -= P * v.chiB;
  }
}

bool StepRun::updateHolds(double /*alpha*/, bool unresolved, const Candidate& event) {
  const std::size_t nc = w_.islandContacts.size();
  bool changed = false;
  w_.touched.clear();
  // Which contacts of the island are held from now on: the pressed ones whose rebound would come
  // back within half a step.
  // An elastic contact bounces as long as it has any speed (each bounce conserves energy, and the
  // step resolves several); only one pressed at no speed at all is held, or one whose path
  // presses in while its momenta leave too slowly to open within the step (`unresolved`: a
  // restart there would find the same crossing again at once). The hold keeps the bounce's
  // energy and gives it back when it lets go. With restitution the bounces shrink
  // geometrically, and below the step's resolution the contact settles.
  const bool pressedByPath = event.pressAcceleration > 0.0;
  // Which island contacts were held before this event: a held body's free closing acceleration
  // reads about 0 (its rows carry its weight), so it is not what decides whether it stays held.
  w_.wasHeld.assign(nc, 0);
  for (std::size_t q = 0; q < nc; ++q) {
    for (const HeldRow& r : w_.held) w_.wasHeld[q] = w_.wasHeld[q] || rowOf(r, w_.contactOf[q]);
  }
  auto holdIt = [&](std::size_t q) {
    const ImpactContact& ic = w_.islandContacts[q];
    double c = w_.closingOf[q];
    // Held until now: it is pressed by its share of gravity (the constrained step lets it go
    // when its multiplier vanishes and it opens); its rebound after this event decides.
    if (w_.wasHeld[q]) c = std::max(c, m_.g * std::fabs(ic.n.z()));
    // The event's contact, pressed in by the path all step long: its press is the path's.
    if (pressedByPath && w_.contactOf[q].sameAs(event.c) && !(ic.uBefore < -ic.uNoise)) {
      c = std::max(c, event.pressAcceleration);
    }
    // With restitution, a contact that keeps coming back within this step (its body was hit
    // three times already) has bounces that accumulate inside the step whatever its free
    // closing acceleration says (a hull rocking on a held vertex onto the next one): it settles
    // once its rebound is below what gravity undoes in a step.
    if (ic.e < 1.0 && w_.impacts[std::size_t(w_.contactOf[q].a)] >= 3 && ic.uAfter <= m_.g * h_) {
      return true;
    }
    if (!(c > 0.0)) return false;
    if (ic.e >= 1.0) {
      return ic.uAfter <= ic.uNoise ||
             ((unresolved || pressedByPath) && impact::bounceBelowResolution(std::max(ic.uAfter, 0.0), c, h_));
    }
    return impact::bounceBelowResolution(std::max(ic.uAfter, 0.0), c, h_);
  };
  // Energy kept by the rows this event replaces, per contact (given to its new rows or back).
  for (std::size_t q = 0; q < nc; ++q) {
    const ContactRef& c = w_.contactOf[q];
    bool first = true;
    for (std::size_t p = 0; p < q; ++p) first = first && !w_.contactOf[p].sameAs(c);
    if (!first) continue;
    // Existing rows of this contact.
    double stored = 0.0;
    bool had = false;
    for (std::size_t k = 0; k < w_.held.size();) {
      if (rowOf(w_.held[k], c)) {
        stored += w_.held[k].stored;
        w_.held.erase(w_.held.begin() + std::ptrdiff_t(k));
        had = true;
      } else {
        ++k;
      }
    }
    bool holds = false;
    for (std::size_t p = q; p < nc; ++p) holds = holds || (w_.contactOf[p].sameAs(c) && holdIt(p));
    if (!holds) {
      if (had) {
        changed = true;
        ++r_.releases;
        if (stored > 0.0) {
          // Give the kept bounce energy back at this contact.
          HeldRow row;
          const Body& A = m_.bodies[std::size_t(c.a)];
          const PartInfo& part = A.parts[std::size_t(c.pa)];
          row.kind = c.b < 0 ? RowKind::SupportPlane : RowKind::SupportPair;
          (void)part;
          row.a = c.a;
          row.pa = c.pa;
          row.b = c.b;
          row.pb = c.pb;
          row.plane = c.plane;
          row.stored = stored;
          releaseStored(row, w_.at);
          for (std::size_t s = 0; s < w_.islandBodies.size(); ++s) {
            const int i = w_.islandBodies[s];
            w_.islandState[s].gamma = w_.at[std::size_t(i)].gamma;
            w_.islandState[s].Pi = w_.at[std::size_t(i)].Pi;
          }
        }
        w_.touched.push_back(c.a);
        if (c.b >= 0) w_.touched.push_back(c.b);
      }
      continue;
    }
    // New rows for the held points of this contact.
    const Body& A = m_.bodies[std::size_t(c.a)];
    const PartInfo& pa = A.parts[std::size_t(c.pa)];
    const bool polyA = pa.kind == PartInfo::Kind::Polyhedron && !pa.point;
    bool polyB = false;
    if (c.b >= 0) {
      const PartInfo& pb = m_.bodies[std::size_t(c.b)].parts[std::size_t(c.pb)];
      polyB = pb.kind == PartInfo::Kind::Polyhedron && !pb.point;
    }
    bool firstRow = true;
    const std::size_t rowsBefore = w_.held.size();
    for (std::size_t p = q; p < nc; ++p) {
      if (!w_.contactOf[p].sameAs(c) || !holdIt(p)) continue;
      const contact::ContactPoint& mp = w_.manifoldOf[p];
      HeldRow row;
      row.a = c.a;
      row.pa = c.pa;
      row.b = c.b;
      row.pb = c.pb;
      row.plane = c.plane;
      row.e = w_.islandContacts[p].e;
      if (c.b < 0) {
        row.kind = polyA && mp.vertexA >= 0 ? RowKind::VertexPlane : RowKind::SupportPlane;
        row.vertex = mp.vertexA;
      } else if (polyA && polyB) {
        const BodyState& sb = w_.at[std::size_t(c.b)];
        row.kind = RowKind::PointFace;
        row.rhoA = mp.rhoA;
        row.rhoB = mp.rhoB;
        row.nB = sb.R.transpose() * w_.islandContacts[p].n;
      } else {
        row.kind = RowKind::SupportPair;
      }
      // One support row per smooth contact.
      bool duplicate = false;
      for (std::size_t k = rowsBefore; k < w_.held.size(); ++k) {
        const HeldRow& o = w_.held[k];
        duplicate = duplicate || (o.kind == row.kind && o.vertex == row.vertex &&
                                  (row.kind == RowKind::SupportPlane || row.kind == RowKind::SupportPair ||
                                   row.kind == RowKind::VertexPlane));
      }
      if (duplicate) continue;
      if (firstRow) row.stored = stored;
      firstRow = false;
      w_.held.push_back(row);
      changed = true;
      ++r_.holds;
    }
    w_.touched.push_back(c.a);
    if (c.b >= 0) w_.touched.push_back(c.b);
  }
  if (!changed) return false;
  // The new rows' normal velocities go to zero (Gauss-Seidel over the rows; the bounces they
  // stand for would end within half a step): an inelastic contact loses that energy, an elastic
  // one keeps it in the row.
  for (int sweep = 0; sweep < 50; ++sweep) {
    double worst = 0.0;
    for (HeldRow& row : w_.held) {
      const int ia = w_.islandIndex[std::size_t(row.a)];
      if (ia < 0) continue;
      bool fresh = false;
      for (int t : w_.touched) fresh = fresh || t == row.a;
      if (!fresh) continue;
      const BodyState& sa = w_.at[std::size_t(row.a)];
      const BodyState& sb = w_.at[std::size_t(row.b >= 0 ? row.b : row.a)];
      const RowValue v = evaluateRow(m_, row, sa, sb);
      const double u = rowVelocity(m_, v, row, sa, sb);
      const Body& A = m_.bodies[std::size_t(row.a)];
      double k = v.n.squaredNorm() / A.m + v.chiA.dot(A.Jinv * v.chiA);
      const bool movableB = row.b >= 0 && !m_.bodies[std::size_t(row.b)].fixed;
      if (movableB) {
        const Body& B = m_.bodies[std::size_t(row.b)];
        k += v.n.squaredNorm() / B.m + v.chiB.dot(B.Jinv * v.chiB);
      }
      const double P = -u / k;
      const double noise = contact::noiseFloor(pointSpeed(A, sa, v.chiA), 0.0);
      worst = std::max(worst, std::fabs(u) - noise);
      if (std::fabs(u) <= noise) continue;
      // Kinetic energy removed by this projection: u^2 / (2 k).
      const double lost = 0.5 * u * u / k;
      if (row.e < 1.0) {
        r_.dissipated += lost;
      } else {
        row.stored += lost;
      }
      BodyState& a = w_.at[std::size_t(row.a)];
      a.gamma += P * v.n;
      a.Pi += P * v.chiA;
      if (movableB) {
        BodyState& b = w_.at[std::size_t(row.b)];
        b.gamma -= P * v.n;
        b.Pi -= P * v.chiB;
      }
    }
    if (!(worst > 0.0)) break;
  }
  return true;
}

bool StepRun::processEvent(const Candidate& k) {
  ++r_.events;
  const double lo = k.lo, t = k.t, alpha = k.alpha;
  for (const int i : w_.islandBodies) w_.islandIndex[std::size_t(i)] = -1;
  w_.islandBodies.clear();
  w_.islandContacts.clear();
  w_.contactOf.clear();
  w_.pointOf.clear();
  w_.manifoldOf.clear();
  w_.closingOf.clear();
  if (!islandAdd(k.c.a, lo, t)) return false;
  if (k.c.b >= 0 && !m_.bodies[std::size_t(k.c.b)].fixed && !islandAdd(k.c.b, lo, t)) return false;
  if (!closeIsland(lo, t)) return false;
  // The island's momenta and energy before.
  w_.islandState.clear();
  double before = 0.0;
  for (const int i : w_.islandBodies) {
    const Body& b = m_.bodies[std::size_t(i)];
    const BodyState& s = w_.at[std::size_t(i)];
    ImpactBody ib;
    ib.m = b.m;
    ib.Jinv = b.Jinv;
    ib.gamma = s.gamma;
    ib.Pi = s.Pi;
    w_.islandState.push_back(ib);
    before += kineticEnergy(b, s) + potentialEnergy(m_, b, s);
  }
  const contact::ImpactOutcome out =
      contact::resolveImpacts(w_.islandState, w_.islandContacts, w_.impulses, m_.law);
  if (!out.ok) {
    r_.fail(RunStatus::Zeno, out.what, -1, alpha);
    r_.failure.with("passes", out.passes).with("contacts", double(w_.islandContacts.size()));
    return false;
  }
  bool any = false;
  for (const ImpactContact& c : w_.islandContacts) any = any || c.impulse > 0.0;
  for (std::size_t q = 0; q < w_.islandBodies.size(); ++q) {
    BodyState& s = w_.at[std::size_t(w_.islandBodies[q])];
    s.gamma = w_.islandState[q].gamma;
    s.Pi = w_.islandState[q].Pi;
  }
  // Energy lost to restitution (an elastic island's round-off is not dissipation).
  bool inelastic = false;
  for (const ImpactContact& c : w_.islandContacts) inelastic = inelastic || c.e < 1.0;
  if (inelastic) r_.dissipated += out.energyLost;
  // Settling: hold the slow contacts, let go of the fast ones.
  const bool holdsChanged = updateHolds(alpha, !any, k);
  if (holdsChanged) r_.settledAt = alpha;
  if (!any && !holdsChanged) {
    // The path crosses but nothing approaches, and nothing settles: continue the event's bodies
    // from here without an impulse (their remainder starts with the momenta's velocity).
    ++r_.restarts;
    const int bodies[2] = {k.c.a, k.c.b};
    for (const int i : bodies) {
      if (i < 0 || m_.bodies[std::size_t(i)].fixed) continue;
      if (++w_.impacts[std::size_t(i)] > 4 * m_.maxImpactsPerBody) {
        r_.fail(RunStatus::Zeno, kZenoText, -1, alpha);
        r_.failure.with("body", i).with("restarts", w_.impacts[std::size_t(i)]);
        return false;
      }
    }
    for (const int i : bodies) {
      if (i < 0 || m_.bodies[std::size_t(i)].fixed) continue;
      dropCandidatesOf(i);
      const int g = groupOf(i);
      if (g >= 0) {
        if (!restartGroup(g, alpha)) return false;
      } else if (!restartBody(i, alpha, w_.at[std::size_t(i)])) {
        return false;
      }
    }
    for (const int i : bodies) {
      if (i >= 0 && !m_.bodies[std::size_t(i)].fixed && !collectFor(i)) return false;
    }
    return true;
  }
  // Energy after; one row per contact point that received an impulse.
  double after = 0.0;
  for (const int i : w_.islandBodies) {
    const Body& b = m_.bodies[std::size_t(i)];
    after += kineticEnergy(b, w_.at[std::size_t(i)]) + potentialEnergy(m_, b, w_.at[std::size_t(i)]);
  }
  const int event = r_.events - 1;
  for (std::size_t q = 0; q < w_.islandContacts.size(); ++q) {
    const ImpactContact& ic = w_.islandContacts[q];
    if (!(ic.impulse > 0.0)) continue;
    const ContactRef& c = w_.contactOf[q];
    ImpactEvent& e = r_.add();
    e = ImpactEvent{};
    e.s = alpha;
    e.gap = c.b >= 0 ? pairGap_ : m_.planes[std::size_t(c.plane)].gap;
    e.before.energy = before;
    e.after.energy = after;
    e.impulse = ic.impulse;
    e.energyResidual = after - before;
    e.detail.bodyA = c.a;
    e.detail.bodyB = c.b;
    e.detail.plane = c.plane;
    e.detail.point = w_.pointOf[q];
    e.detail.normal = ic.n;
    e.detail.uBefore = ic.uBefore;
    e.detail.uAfter = ic.uAfter;
    e.detail.event = event;
  }
  // Bodies that got an impulse or whose holds changed restart here (with their whole group);
  // the others keep their unsplit step.
  if (holdsChanged) buildGroups();
  for (std::size_t q = 0; q < w_.islandBodies.size(); ++q) {
    const int i = w_.islandBodies[q];
    bool restart = std::find(w_.touched.begin(), w_.touched.end(), i) != w_.touched.end();
    for (const ImpactContact& ic : w_.islandContacts) {
      if (ic.impulse > 0.0 && (ic.a == int(q) || ic.b == int(q))) restart = true;
    }
    if (!restart) continue;
    if (++w_.impacts[std::size_t(i)] > m_.maxImpactsPerBody) {
      r_.fail(RunStatus::Zeno, kZenoText, -1, alpha);
      r_.failure.with("body", i).with("cap", m_.maxImpactsPerBody);
      return false;
    }
    const int g = groupOf(i);
    if (g >= 0) {
      if (w_.alpha[std::size_t(i)] == alpha && std::find(w_.moved.begin(), w_.moved.end(), i) != w_.moved.end()) {
        continue;  // its group already restarted at this event
      }
      for (int p = w_.groupBodyStart[std::size_t(g)]; p < w_.groupBodyStart[std::size_t(g) + 1]; ++p) {
        dropCandidatesOf(w_.groupBodies[std::size_t(p)]);
      }
      if (!restartGroup(g, alpha)) return false;
    } else {
      dropCandidatesOf(i);
      if (!restartBody(i, alpha, w_.at[std::size_t(i)])) return false;
    }
  }
  for (const int i : w_.islandBodies) {
    if (w_.alpha[std::size_t(i)] != alpha) continue;
    if (!collectFor(i)) return false;
  }
  return true;
}

RunStatus StepRun::run() {
  w_.held = state_.held;
  for (HeldRow& r : w_.held) r.lifted = false;
  buildGroups();
  // Every body's own step; held groups take their constrained step.
  for (int i = 0; i < n_; ++i) {
    const BodyState& s = state_.bodies[std::size_t(i)];
    w_.alpha[std::size_t(i)] = 0.0;
    w_.base[std::size_t(i)] = s;
    w_.impacts[std::size_t(i)] = 0;
    const Body& b = m_.bodies[std::size_t(i)];
    if (b.fixed) {
      // A fixed body's state is its state at every instant: the island code reads it from `at`.
      w_.at[std::size_t(i)] = s;
      w_.end[std::size_t(i)] = s;
    } else if (groupOf(i) < 0) {
      const FlowResult f = flowBody(m_, b, s, h_, w_.end[std::size_t(i)]);
      if (f.pieces > 1) ++r_.subSteppedFlows;
      if (!f.ok) {
        flowFailed(i, 0.0, h_);
        return r_.status;
      }
    }
  }
  const int groups = int(w_.groupBodyStart.size()) - 1;
  for (int g = 0; g < groups; ++g) {
    if (!flowGroup(g, h_, true, w_.end)) return r_.status;
  }
  for (int i = 0; i < n_; ++i) {
    w_.box[std::size_t(i)] =
        sweptBox(m_, m_.bodies[std::size_t(i)], w_.base[std::size_t(i)], w_.end[std::size_t(i)], h_);
  }
  w_.moved.clear();
  w_.candidates.clear();
  // Contacts violated at the end of the step.
  for (int i = 0; i < n_; ++i) {
    addPlaneCandidates(i);
    if (r_.status != RunStatus::Ok) return r_.status;
  }
  if (n_ > 1) {
    w_.broad.findPairs(w_.box, w_.still);
    for (const auto& [a, b] : w_.broad.pairs()) {
      addPairCandidates(a, b);
      if (r_.status != RunStatus::Ok) return r_.status;
    }
  }
  // Events in time order.
  const int cap = (m_.maxImpactsPerBody + 1) * 4 * (n_ + 1);
  for (int guard = 0; !w_.candidates.empty(); ++guard) {
    if (guard > cap) {
      r_.fail(RunStatus::Zeno, kZenoText, -1, 1.0);
      return RunStatus::Zeno;
    }
    int best = -1;
    for (int q = 0; q < int(w_.candidates.size()); ++q) {
      Candidate& k = w_.candidates[std::size_t(q)];
      if (!k.timed && !timeCandidate(k)) return r_.status;
      if (!k.timed) continue;  // touching at rest: not an event
      if (best < 0 || k.alpha < w_.candidates[std::size_t(best)].alpha) best = q;
    }
    if (best < 0) break;
    const Candidate k = w_.candidates[std::size_t(best)];
    w_.candidates.erase(w_.candidates.begin() + best);
    w_.candidates.erase(std::remove_if(w_.candidates.begin(), w_.candidates.end(),
                                       [](const Candidate& c) { return !c.timed && c.alpha > 1.0; }),
                        w_.candidates.end());
    if (!processEvent(k)) return r_.status;
  }
  // Held contacts that let go during their group's last flow: elastic ones give back their kept
  // energy.
  for (std::size_t k = w_.held.size(); k-- > 0;) {
    if (!w_.held[k].lifted) continue;
    releaseStored(w_.held[k], w_.end);
    w_.held.erase(w_.held.begin() + std::ptrdiff_t(k));
    ++r_.releases;
  }
  for (int i = 0; i < n_; ++i) state_.bodies[std::size_t(i)] = w_.end[std::size_t(i)];
  state_.held = w_.held;
  return RunStatus::Ok;
}

}  // namespace

RunStatus BodiesStepper::step(WorldState& state, Report& report) const {
  report.clear();
  StepRun run(*model_, h_, pairGap_, state, report);
  const RunStatus st = run.run();
  if (st != RunStatus::Ok && report.status == RunStatus::Ok) report.status = st;
  return st;
}

}  // namespace ricochet::bodies
