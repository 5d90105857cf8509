#pragma once
// The one description of an example system, and the running simulation it creates.
//
// Layering (Pinocchio's Model/Data split): a SystemDescription is constant and shared; a
// Simulation owns the mutable state and the integrator workspace of one run. GUI, CLI, CSV
// traces, benchmarks and tests only talk to these two interfaces. Concrete systems implement the
// step loop with fixed-size Eigen types behind `Simulation::advance`, which runs many steps per
// virtual call and never allocates.

#include "core/model/body_description.hpp"
#include "core/model/parameter.hpp"
#include "core/model/scene.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ricochet {

struct IntegratorSettings {
  std::string name;        ///< one of SystemInfo::integrators
  double h = 0.01;         ///< time step, s (> 0)
  double tolerance = 1e-14;  ///< solver tolerance (> 0)
};

/// Everything needed to reproduce a run. Values are aligned with the SystemInfo spec lists.
struct Scenario {
  std::string system;
  std::vector<double> parameters;
  std::vector<double> initial;
  IntegratorSettings integrator;
  double tEnd = 10.0;  ///< s (> 0)
  /// The body and world of a system that reads them (SystemInfo::defaultBody set: rigid-body);
  /// null for every other system. Shared and immutable: edit a copy.
  std::shared_ptr<const BodyScenario> body;
};

/// How a run (or a call to Simulation::advance) ended.
enum class RunStatus {
  Ok,
  SolverFailed,  ///< a Newton or root solve did not converge within its iteration cap
  Zeno,          ///< too many impacts in one step (chattering / grazing cascade)
  NonFinite,     ///< the state became NaN or infinite
};

/// What RunStatus::Zeno means, for every engine's failure message.
inline constexpr const char* kZenoText =
    "too many impacts in one step (Zeno: a body resting or sliding on a boundary, which elastic "
    "impacts cannot hold, or a grazing cascade; start it off the boundary or reduce h)";

/// Short machine-readable name: "ok", "solver-failed", "zeno", "non-finite".
const char* toString(RunStatus status);

struct AdvanceResult {
  std::int64_t stepsTaken = 0;
  RunStatus status = RunStatus::Ok;
  /// Empty when Ok; otherwise what failed (gap, residual, ...). Where it failed, the step and its
  /// time, is added by failureText(), the one place that formats it for every engine.
  std::string message;
  bool ok() const { return status == RunStatus::Ok; }
};

/// One impact, as reported during Simulation::advance.
struct ImpactRecord {
  std::int64_t step = 0;  ///< step index after the step that contains the impact (the first trace
                          ///< row recorded after it carries this `step`)
  double t = 0.0;         ///< impact time, s
  double alpha = 0.0;     ///< fraction of the step (0, 1] at which the impact happens
  int constraint = 0;     ///< index into SystemInfo::constraints
  double energyBefore = 0.0;  ///< continuous energy at the impact point, pre-impact momentum
  double energyAfter = 0.0;   ///< same with the post-impact momentum
  double impulse = 0.0;       ///< impulse magnitude (mu or lambda of the paper), > 0
  /// Resolved by the exact reflection instead of the discrete energy balance: a near-grazing
  /// contact (core/numerics/grazing.hpp). Only energy-balanced integrators set it.
  bool reflected = false;
  Eigen::Vector3d contactPoint = Eigen::Vector3d::Constant(
      std::numeric_limits<double>::quiet_NaN());  ///< world coordinates, for display; NaN if none
  /// The two bodies of the contact, for a world of several bodies (`bodies`): their indices,
  /// bodyB = -1 for a plane. -1 and -1 for every other system.
  int bodyA = -1;
  int bodyB = -1;
};

/// Receives impacts as they happen (called from the thread that runs `advance`).
class ImpactSink {
 public:
  virtual ~ImpactSink() = default;
  virtual void onImpact(const ImpactRecord& impact) = 0;
};

struct EnergySplit {
  double kinetic = 0.0;
  double potential = 0.0;
  double total() const { return kinetic + potential; }
};

/// One run of one system with one integrator. Not thread-safe: one thread owns it.
class Simulation {
 public:
  virtual ~Simulation() = default;

  virtual std::int64_t step() const = 0;      ///< number of steps taken so far
  virtual double time() const = 0;            ///< simulated time of the current state, s
  virtual std::int64_t impactCount() const = 0;
  virtual double timeStep() const = 0;        ///< h, s

  /// Advances up to `maxSteps` steps of length h; stops early at the first failure, leaving the
  /// last good state in place. Impacts go to `sink` when it is not null. No heap allocation.
  virtual AdvanceResult advance(std::int64_t maxSteps, ImpactSink* sink) = 0;

  /// Continuous mechanical energy evaluated on the current discrete state.
  virtual EnergySplit energy() const = 0;

  /// Smallest gap min_j g_j(q) at the current state (>= 0 means admissible).
  virtual double minGap() const = 0;

  /// System-specific trace columns, after the contract's required ones: `q.<coord>`, then `v.` or
  /// `p.` columns, then `mom.<name>` (momentum-like quantities the GUI plots), `e.<name>` (extra
  /// energies, e.g. "e.discrete"), `con.<name>` (constraint residuals). Same list for the whole run.
  virtual std::span<const std::string> columns() const = 0;

  /// Values for `columns()`, in order; `out.size() == columns().size()`.
  virtual void sample(std::span<double> out) const = 0;

  /// One pose per SceneSpec body, in order; `out.size() == scene.bodies.size()`.
  virtual void poses(std::span<Pose> out) const = 0;

  /// Kinetic energy lost so far at impacts with restitution < 1 and where contacts settled, J
  /// (always 0 for an elastic run): energy().total() + dissipatedEnergy() stays near the initial
  /// energy (docs/restitution.md).
  virtual double dissipatedEnergy() const { return 0.0; }
  /// The time (s) since which the run's bodies have been settled: each held on a boundary as an
  /// equality constraint after its bounces fell below the step's resolution
  /// (docs/restitution.md). NaN while a body is not settled (always NaN for an elastic run).
  virtual double settledTime() const { return std::numeric_limits<double>::quiet_NaN(); }
};

/// One line for a failed Simulation::advance: "integrator failed at step N (t = T s): WHAT", with N
/// the step that failed (sim.step() + 1: the simulation stays at its last good state), T the time
/// it started from and WHAT the result's message (its status name if the message is empty).
std::string failureText(const Simulation& sim, const AdvanceResult& result);
/// The same line for a failure found by the caller: step `step`, which started at `t` seconds.
std::string failureText(std::int64_t step, double t, const std::string& what);

/// Outcome of creating a simulation: either `simulation` or a one-line `error` that names the
/// offending value (e.g. "initial condition outside the admissible set: gap 'floor' = -0.5 < 0").
struct CreateResult {
  std::unique_ptr<Simulation> simulation;
  std::string error;
};

/// An integrator a system offers, e.g. "variational" (the default, first in the list), and the
/// factory that builds a run with it.
struct IntegratorInfo {
  std::string name;   ///< id accepted by `--integrator NAME`, e.g. "variational", "rk4-event"
  std::string title;  ///< short label for the GUI
  std::string help;   ///< one or two sentences: what it is, what it conserves, its source
  /// Builds a run of a scenario that passed validateScenario() and names this integrator: the
  /// system-specific checks (admissible set, ...) and the simulation at its initial state.
  std::function<CreateResult(const Scenario&)> create;
};

struct SystemInfo {
  std::string id;       ///< stable system id, e.g. "particle-floor" (ricochet-cli list)
  std::string title;    ///< e.g. "Particle bouncing on a floor"
  std::string source;   ///< paper and section, e.g. "004 §4.2, 000 §4.1"
  std::string summary;  ///< a short paragraph for the GUI and `describe`
  std::vector<ParameterSpec> parameters;
  std::vector<ParameterSpec> initial;
  std::vector<IntegratorInfo> integrators;  ///< the first is the default
  std::vector<std::string> constraints;     ///< names of the unilateral constraints g_j >= 0
  double defaultH = 0.01;           ///< s
  double defaultTEnd = 10.0;        ///< s
  double defaultTolerance = 1e-14;  ///< solver tolerance (root finding / Newton), dimensionless
  /// Set for a system whose body and world come from the scenario (its "body" and "world"
  /// objects): the default ones. Null: the system takes no body.
  std::shared_ptr<const BodyScenario> defaultBody;
};

/// What a described body weighs and how it turns, as it runs (a system with
/// SystemInfo::defaultBody): for the window's Body section and any other reader of a scenario.
struct BodyFigures {
  double mass = 0.0;    ///< kg: the parameter m, or density times volume
  double volume = 0.0;  ///< m^3, rounding included
  Eigen::Vector3d centreOfMass = Eigen::Vector3d::Zero();      ///< m, in the description's frame
  Eigen::Vector3d principalMoments = Eigen::Vector3d::Zero();  ///< kg m^2, ascending
  int inputVertices = 0;  ///< points given (box corners, mesh vertices)
  int hullVertices = 0;   ///< of which extreme points of their convex parts
};

/// The single description of one example system. Stateless; one instance per system lives in
/// the registry for the lifetime of the program.
class SystemDescription {
 public:
  virtual ~SystemDescription() = default;
  virtual const SystemInfo& info() const = 0;

  /// What the system looks like for the given parameter values (aligned with info().parameters).
  virtual SceneSpec scene(std::span<const double> parameters) const = 0;
  /// What one scenario looks like: scene(parameters), unless the geometry depends on more than
  /// the parameters (the body and world of a system with SystemInfo::defaultBody).
  virtual SceneSpec scene(const Scenario& scenario) const { return scene(scenario.parameters); }
  /// The scenario's body as it runs (a system with SystemInfo::defaultBody); nullopt for a system
  /// without a body, or a body that cannot be built (createSimulation() then says why).
  virtual std::optional<BodyFigures> bodyFigures(const Scenario&) const { return std::nullopt; }

  /// Builds a simulation at its initial state through the factory of the scenario's integrator
  /// (IntegratorInfo::create). Called by createSimulation() after the generic checks (sizes,
  /// finiteness, ranges, h, tolerance, integrator name); the factory adds the system-specific
  /// ones (admissible set, constraint-compatible initial velocities, ...).
  CreateResult create(const Scenario& scenario) const;

  /// The names of the parameters and initial conditions as the system's code reads them, in
  /// order (NameList); the registry checks them against info()'s spec lists.
  std::span<const std::string_view> parameterNames() const { return parameterNames_; }
  std::span<const std::string_view> initialNames() const { return initialNames_; }

 protected:
  /// Declares the names the system's code reads (static NameLists). Call in the constructor.
  void readsNames(std::span<const std::string_view> parameters,
                  std::span<const std::string_view> initial) {
    parameterNames_ = parameters;
    initialNames_ = initial;
  }

 private:
  std::span<const std::string_view> parameterNames_, initialNames_;
};

}  // namespace ricochet
