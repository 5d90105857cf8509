#pragma once
// One step of a world of rigid bodies (docs/multibody.md, "The step"): every body takes its own
// LGVI step; the contacts whose gap is closed at the end of the step are events, each at the
// first root of its gap along the step's flow (Brent on the end-of-step bracket, as the one-body
// LGVCI of paper 003); events are resolved in time order: the contacts closed at the event's
// instant form an island, whose impulses are generalized reflections (core/contact/
// reflections.hpp); the bodies that received an impulse continue from there, everyone else
// keeps the unsplit step, bit for bit.
//
// A contact whose path crosses while its momenta say it leaves (the discrete flow and the
// momentum disagree at O(h) near a slow contact) is not an impact: its bodies continue from the
// crossing point with an unsplit remainder, whose path starts with the momentum's velocity
// ("restart", counted in the report). A contact that closes at zero approach speed with the
// bodies pressed together (a body lying on the ground) is held (settling, docs/restitution.md).
//
// Model/Data: the stepper is constant and shared; a run owns its WorldState and its Report,
// which holds every buffer the step uses, sized at prepare() (no allocation in the step loop).

#include "core/bodies/broad_phase.hpp"
#include "core/bodies/held.hpp"
#include "core/bodies/world.hpp"
#include "core/impact/step_report.hpp"

#include <memory>
#include <vector>

namespace ricochet::bodies {

/// The state of a world: one state per body (fixed bodies: their pose), and the contacts held
/// (settled) at this instant.
struct WorldState {
  std::vector<BodyState> bodies;
  std::vector<HeldRow> held;
  /// Energy kept by held elastic contacts (their bounces' kinetic energy), J.
  double storedEnergy() const {
    double e = 0.0;
    for (const HeldRow& r : held) e += r.stored;
    return e;
  }
};

/// What an impact row carries about the instant of its event.
struct EventPoint {
  double energy = 0.0;  ///< total energy of the event's island at the event, J
};

struct ImpactDetail {
  int bodyA = -1;            ///< body on the +n side
  int bodyB = -1;            ///< the other body; -1: a plane
  int plane = -1;            ///< the plane's index when bodyB = -1
  Vec3 point = Vec3::Zero(); ///< contact point on A, world, m
  Vec3 normal = Vec3::UnitZ();  ///< from B (or the plane) towards A
  double uBefore = 0.0;      ///< relative normal velocity before the event, m/s (< 0)
  double uAfter = 0.0;       ///< after it, m/s
  int event = 0;             ///< index of the event in its step: rows of one event share it
};

using ImpactEvent = impact::Impact<EventPoint, ImpactDetail>;

/// A contact of the step: part `pa` of body `a` against part `pb` of body `b`, or against plane
/// `plane` (b = -1).
struct ContactRef {
  int a = 0, pa = 0;
  int b = -1, pb = -1;
  int plane = -1;
  /// A polyhedron on a plane with some vertices held: the gap of its other vertices.
  bool excludeHeld = false;
  bool sameAs(const ContactRef& o) const {
    return a == o.a && pa == o.pa && b == o.b && pb == o.pb && plane == o.plane;
  }
};

/// Per-run buffers of the step (sized by BodiesStepper::prepare()).
struct StepWork {
  std::vector<double> alpha;        ///< fraction of the step where each body's path restarts
  std::vector<BodyState> base;      ///< each body's state there
  std::vector<BodyState> end;       ///< its state at the end of the step
  std::vector<BodyState> at;        ///< states at the current event
  std::vector<int> atStamp;         ///< event stamp for which `at` is valid
  std::vector<Aabb> box;            ///< swept bounds over [alpha, 1]
  std::vector<char> still;          ///< fixed bodies
  std::vector<int> impacts;         ///< impacts of each body in this step (Zeno guard)
  std::vector<int> moved;           ///< bodies split in this step
  std::vector<int> partners;        ///< scratch for partner queries
  struct Candidate {
    ContactRef c;
    double alpha = 0.0;  ///< event time (absolute fraction); valid when timed
    double lo = 0.0, t = 0.0;  ///< alpha = lo + t, lo the later restart of its bodies
    bool timed = false;
    bool closedAtLo = false;   ///< event at lo: closed and approaching there
    /// A gap that dips below zero inside the step and is open again at its end: the sample
    /// (fraction after lo) where it was found closed, and its value there; cutT < 0: none.
    double cutT = -1.0, cutGap = 0.0;
    /// Closed, not approaching, and pressed in by the step's path all the way (the gap never
    /// opens): the path's normal acceleration -2 g_end / tau^2 (m/s^2), else 0. The current holds
    /// act on that path, so it sees a press the free closing acceleration misses (a hull pivoting
    /// on one held vertex onto the next).
    double pressAcceleration = 0.0;
  };
  std::vector<Candidate> candidates;
  std::vector<int> islandIndex;     ///< per body: its index in the island, -1 if not in it
  std::vector<int> islandBodies;
  std::vector<contact::ImpactBody> islandState;
  std::vector<contact::ImpactContact> islandContacts;
  std::vector<ContactRef> contactOf;     ///< for each island contact, its contact
  std::vector<Vec3> pointOf;             ///< for each island contact, its world point on A
  std::vector<contact::ContactPoint> manifoldOf;  ///< for each island contact, its point
  std::vector<double> closingOf;         ///< for each island contact, its closing acceleration
  std::vector<char> wasHeld;             ///< for each island contact, held before the event
  // Held contacts during the step, and the groups of bodies they join (moving as one).
  std::vector<HeldRow> held;
  std::vector<int> group;                ///< per body: its group, -1 if free
  std::vector<int> groupBodyStart, groupBodies, groupRowStart, groupRows;
  std::vector<int> parent;               ///< union-find scratch
  std::vector<HeldRow> groupRowScratch;
  std::vector<char> liftedScratch;
  std::vector<BodyState> groupStates;    ///< a group's states at `cachedTau`
  int cachedGroup = -1;
  double cachedTau = 0.0;
  std::vector<int> touched;              ///< scratch: bodies whose holds changed
  std::vector<double> rowEnergy;         ///< scratch: energy taken by new rows' projections
  HeldWork heldWork;
  contact::ImpactWorkspace impulses;
  BroadPhase broad;
  int stamp = 0;
};

/// The report of one step: impacts in order (a growable list reserved at prepare()), the failure,
/// counters, and the step's buffers.
struct Report {
  using value_type = ImpactEvent;
  RunStatus status = RunStatus::Ok;
  int impactCount = 0;
  std::vector<ImpactEvent> impacts;
  impact::StepFailure failure;
  int restarts = 0;       ///< crossings of a leaving contact continued without impulse
  int holds = 0;          ///< contacts that settled (became held) in this step
  int releases = 0;       ///< held contacts that let go in this step
  int subSteppedFlows = 0;  ///< flows split into several variational sub-steps (fast spin)
  int events = 0;
  double dissipated = 0.0;  ///< kinetic energy lost at this step's impacts and holds, J
  /// Fraction of the step at which a contact was last held; negative: none was.
  double settledAt = -1.0;
  StepWork work;

  void clear() {
    status = RunStatus::Ok;
    impactCount = 0;
    restarts = 0;
    holds = 0;
    releases = 0;
    subSteppedFlows = 0;
    events = 0;
    dissipated = 0.0;
    settledAt = -1.0;
  }
  RunStatus fail(RunStatus st, const char* what, int gap, double s) {
    status = st;
    failure = impact::StepFailure{};
    failure.what = what;
    failure.gap = gap;
    failure.s = s;
    return st;
  }
  ImpactEvent& add() {
    if (impactCount == int(impacts.size())) impacts.resize(impacts.size() * 2 + 16);
    return impacts[std::size_t(impactCount++)];
  }
  const ImpactEvent* begin() const { return impacts.data(); }
  const ImpactEvent* end() const { return impacts.data() + impactCount; }
};

class BodiesStepper {
 public:
  using State = WorldState;
  using Report = bodies::Report;

  /// h: time step, s (> 0). `pairGap`: the constraint index of body-body contacts.
  BodiesStepper(std::shared_ptr<const WorldModel> model, double h, int pairGapIndex);

  /// Sizes a run's buffers for this world (called once per run, before the first step).
  void prepare(Report& report) const;

  /// Advances every body by h. On failure the state is unchanged and report.failure says why.
  RunStatus step(WorldState& state, Report& report) const;

  const WorldModel& model() const { return *model_; }
  const std::shared_ptr<const WorldModel>& sharedModel() const { return model_; }
  double timeStep() const { return h_; }
  int pairGapIndex() const { return pairGap_; }

  double impactEnergy(const EventPoint& p) const { return p.energy; }
  /// The bodies of an impact for its ImpactRecord: -1, -1 in a world that stands for a one-body
  /// system (built with pairGapIndex < 0), whose records name planes only.
  void impactBodies(const ImpactEvent& e, int& a, int& b) const {
    a = pairGap_ < 0 ? -1 : e.detail.bodyA;
    b = pairGap_ < 0 ? -1 : e.detail.bodyB;
  }
  Vec3 contactPoint(const ImpactEvent& e) const { return e.detail.point; }
  const char* gapName(int gap) const;

  /// True when every movable body is held (settled on a plane, a fixed body or another held
  /// body): StepperSimulation's settled_t.
  bool settled(const WorldState& s) const;

  /// Total energy of the world, J.
  double energy(const WorldState& s) const;

 private:
  struct Eval;
  const std::shared_ptr<const WorldModel> model_;
  double h_;
  int pairGap_;
};

}  // namespace ricochet::bodies
