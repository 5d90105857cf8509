// The "disk-wall" (P001 §6) and "disk-table" (P002 §5) systems: model data, scene, simulations
// with three integrators ("variational", "reduced", "dla-002"; docs/nonholonomic-vci.md).
#include "core/nonholonomic/rolling_disk.hpp"

#include "core/model/parameter.hpp"
#include "core/nonholonomic/dla002.hpp"
#include "core/nonholonomic/engine_simulation.hpp"

#include <Eigen/Geometry>

#include <cmath>
#include <numbers>
#include <type_traits>

namespace ricochet::nonholonomic {
namespace {

constexpr NameList kWallParams{"m", "R", "I", "J", "yw", "restitution"};
constexpr NameList kTableParams{"m", "R", "I", "J", "a", "restitution"};
constexpr NameList kInitial{"x0", "y0", "theta0", "phi0", "u0", "w0"};

template <DiskObstacle O>
constexpr const auto& params() {
  if constexpr (O == DiskObstacle::Wall) return kWallParams;
  else return kTableParams;
}

template <DiskObstacle O>
RollingDiskModel<O> modelFrom(std::span<const double> p) {
  constexpr const auto& k = params<O>();
  RollingDiskModel<O> model;
  model.m = p[k("m")];
  model.R = p[k("R")];
  model.I = p[k("I")];
  model.J = p[k("J")];
  if constexpr (O == DiskObstacle::Wall) {
    model.yw = p[k("yw")];
  } else {
    model.a = p[k("a")];
  }
  model.lengthScale = model.R;
  return model;
}

/// Where a disk run starts: the model, the initial node and rolling and turning rates, and the
/// solver options of the scenario.
template <DiskObstacle O>
struct DiskStart {
  RollingDiskModel<O> model;
  Eigen::Vector4d q0 = Eigen::Vector4d::Zero();
  double u0 = 0.0, w0 = 0.0, h = 0.01;
  LdapOptions options;
};

/// The scenario's start, or the admissibility message.
template <DiskObstacle O>
std::string diskStart(const Scenario& sc, DiskStart<O>& s) {
  using Model = RollingDiskModel<O>;
  const std::span<const double> ic(sc.initial);
  s.model = modelFrom<O>(sc.parameters);
  s.q0 = Eigen::Vector4d(ic[kInitial("x0")], ic[kInitial("y0")], ic[kInitial("theta0")],
                         ic[kInitial("phi0")]);
  for (int j = 0; j < Model::kGaps; ++j) {
    const double gj = s.model.gap(j, s.q0);
    if (gj < 0.0) {
      return "initial condition outside the admissible set: gap '" +
             std::string(Model::gapName(j)) + "' = " + formatNumber(gj) + " < 0" +
             (O == DiskObstacle::Wall ? " (y0 + R |sin phi0| must be <= yw)"
                                      : " (both footprint end points must lie on the table)");
    }
  }
  s.u0 = ic[kInitial("u0")];
  s.w0 = ic[kInitial("w0")];
  s.h = sc.integrator.h;
  s.options.discretisation = Discretisation::Midpoint;
  s.options.tolerance = sc.integrator.tolerance;
  s.options.restitution = sc.parameters[params<O>()("restitution")];
  return {};
}

/// Initial states of the three engines for a start.
template <DiskObstacle O>
typename LdapVci<RollingDiskModel<O>>::State initialState(const LdapVci<RollingDiskModel<O>>& e,
                                                          const DiskStart<O>& s) {
  const auto& m = s.model;
  return e.initialState(s.q0, m.initialMomentum(s.q0, s.u0, s.w0, s.h),
                        m.chordVelocity(s.q0[3] - s.h * s.w0, s.u0, s.w0, s.h), s.h);
}
template <DiskObstacle O>
typename ReducedDiskVci<RollingDiskModel<O>>::State initialState(
    const ReducedDiskVci<RollingDiskModel<O>>& e, const DiskStart<O>& s) {
  return e.initialState(s.q0, s.u0, s.w0);
}
template <DiskObstacle O>
typename Dla002<RollingDiskModel<O>>::State initialState(const Dla002<RollingDiskModel<O>>& e,
                                                         const DiskStart<O>& s) {
  // Two points on the constraint.
  return e.initialState(s.model.previousNode(s.q0, s.u0, s.w0, s.h), s.q0, s.h);
}

/// Pose of the disk: centre (x, y, R); body z = axle (-sin phi, cos phi, 0), body y = heading,
/// body x = up at theta = 0, then the rolling rotation theta about the axle.
Pose diskPose(double R, const Eigen::Vector4d& q) {
  const double c = std::cos(q[3]), s = std::sin(q[3]);
  Eigen::Matrix3d R0;
  R0.col(0) = Eigen::Vector3d::UnitZ();
  R0.col(1) = Eigen::Vector3d(c, s, 0.0);
  R0.col(2) = Eigen::Vector3d(-s, c, 0.0);
  Pose pose;
  pose.position = Eigen::Vector3d(q[0], q[1], R);
  pose.rotation = R0 * Eigen::AngleAxisd(q[2], Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return pose;
}

template <class Engine, DiskObstacle O>
class DiskSimulation final : public EngineSimulation<Engine> {
 public:
  using Base = EngineSimulation<Engine>;
  using Base::Base;

  void sampleColumns(std::span<double> out) const override {
    const Engine& e = this->engine();
    const auto& state = this->state_;
    const auto& model = e.model();
    const Eigen::Vector4d& q = e.q(state);
    const Eigen::Vector4d& p = e.p(state);
    const Eigen::Vector4d w = e.segmentVelocity(state);
    const double u = w[2], wphi = w[3];  // reduced velocity (thetadot, phidot) of the last segment
    for (int i = 0; i < 4; ++i) out[i] = q[i];
    for (int i = 0; i < 4; ++i) out[4 + i] = p[i];
    out[8] = u;
    out[9] = wphi;
    const double c = std::cos(q[3]), s = std::sin(q[3]);
    if constexpr (O == DiskObstacle::Wall) {
      // Momentum along T(wall) ∩ Delta, continuous across front-edge impacts.
      out[10] = model.A() * c * u - model.B() * s * wphi;
    } else {
      // Angular momentum about the table centre m (x ydot - y xdot) + J phidot (not conserved).
      out[10] = model.m * model.R * u * (q[0] * s - q[1] * c) + model.J * wphi;
    }
    out[11] = e.lastSegmentEnergy(state);
    const Eigen::Vector2d r = e.lastSegmentConstraint(state);
    out[12] = r[0];
    out[13] = r[1];
    out[14] = this->minGap();
  }

  void poses(std::span<Pose> out) const override {
    out[0] = diskPose(this->engine().model().R, this->state_.q);
  }
};

const std::vector<std::string>& diskColumns(DiskObstacle o) {
  static const std::vector<std::string> wall = {
      "q.x", "q.y", "q.theta", "q.phi", "p.x", "p.y", "p.theta", "p.phi", "mom.u", "mom.w",
      "mom.tangential", "e.discrete", "con.x", "con.y", "con.gap"};
  static const std::vector<std::string> table = {
      "q.x", "q.y", "q.theta", "q.phi", "p.x", "p.y", "p.theta", "p.phi", "mom.u", "mom.w",
      "mom.Lz", "e.discrete", "con.x", "con.y", "con.gap"};
  return o == DiskObstacle::Wall ? wall : table;
}

/// The factory of one engine: the shared start, then the engine at its initial state.
template <template <class> class EngineT, DiskObstacle O>
CreateResult createDisk(const Scenario& sc) {
  using Engine = EngineT<RollingDiskModel<O>>;
  DiskStart<O> s;
  if (std::string e = diskStart<O>(sc, s); !e.empty()) return {nullptr, std::move(e)};
  const bool dissipative = s.options.restitution < 1.0;
  if constexpr (std::is_same_v<Engine, Dla002<RollingDiskModel<O>>>) {
    if (dissipative) {
      // P002's scheme as printed has no restitution: its impact is an energy equality.
      return {nullptr, "parameter 'restitution' = " + formatNumber(s.options.restitution) +
                           " is not available with integrator 'dla-002' (P002's elastic "
                           "equations as printed): use 'variational' or 'reduced'"};
    }
  }
  Engine engine(s.model, s.h, s.options);
  const auto state = initialState<O>(engine, s);
  return {std::make_unique<DiskSimulation<Engine, O>>(std::move(engine), state, 0.0, diskColumns(O),
                                                      dissipative),
          {}};
}

template <DiskObstacle O>
class DiskSystem final : public SystemDescription {
 public:
  using Model = RollingDiskModel<O>;
  using Vec = typename Model::Vec;

  DiskSystem() {
    readsNames(params<O>().view(), kInitial.view());
    const double pi = std::numbers::pi;
    const bool wall = O == DiskObstacle::Wall;
    info_.id = wall ? "disk-wall" : "disk-table";
    info_.title = wall ? "Vertical rolling disk hitting a wall"
                       : "Vertical rolling disk inside a circular table";
    info_.source = wall ? "001 §6" : "002 §5";
    info_.summary =
        wall ? "A vertical disk rolls without slipping on the floor (xdot = R thetadot cos phi, "
               "ydot = R thetadot sin phi) towards the wall y = yw and bounces off it elastically. "
               "Both edges of the disk are kept behind the wall (y + R |sin phi| <= yw; P001 "
               "prints only the front edge). Rolling rate u = thetadot and turning rate w = "
               "phidot are constant between impacts."
             : "A vertical disk rolls without slipping (xdot = R thetadot cos phi, ydot = R "
               "thetadot sin phi) inside a circular table of radius a centred at the origin; the "
               "two end points of its footprint, (x, y) +- R (cos phi, sin phi), stay on the "
               "table (P002's C+ and C-). Rolling rate u = thetadot and turning rate w = phidot "
               "are constant between impacts.";
    info_.parameters = {
        {"m", "kg", 1.0, 0.0, kUnbounded, true, false, "Mass of the disk."},
        {"R", "m", 1.0, 0.0, kUnbounded, true, false, "Radius of the disk."},
        {"I", "kg m^2", 0.5, 0.0, kUnbounded, true, false,
         "Moment of inertia about the axle (m R^2 / 2 for a uniform disk)."},
        {"J", "kg m^2", 0.25, 0.0, kUnbounded, true, false,
         "Moment of inertia about a vertical diameter (m R^2 / 4 for a uniform disk)."},
    };
    if (wall) {
      info_.parameters.push_back({"yw", "m", 10.0, -kUnbounded, kUnbounded, false, false,
                                  "Position of the wall y = yw (P001: 10)."});
    } else {
      info_.parameters.push_back({"a", "m", 5.0, 0.0, kUnbounded, true, false,
                                  "Radius of the table, centred at the origin."});
    }
    info_.parameters.push_back(restitutionSpec());
    info_.initial = {
        {"x0", "m", 0.0, -kUnbounded, kUnbounded, false, false,
         "Initial x of the contact point (= centre)."},
        {"y0", "m", 0.0, -kUnbounded, kUnbounded, false, false,
         "Initial y of the contact point (= centre)."},
        {"theta0", "rad", 0.0, -kUnbounded, kUnbounded, false, false, "Initial rolling angle."},
        {"phi0", "rad", wall ? pi / 3.0 : 0.0, -kUnbounded, kUnbounded, false, false,
         "Initial heading: angle of the disk plane with the x axis."},
        {"u0", "rad/s", 2.0, -kUnbounded, kUnbounded, false, false,
         "Initial rolling rate thetadot; the centre moves at R u0 along the heading."},
        {"w0", "rad/s", wall ? 0.2 : 0.3, -kUnbounded, kUnbounded, false, false,
         "Initial turning rate phidot."},
    };
    info_.integrators = {
        {"variational", "LDAP VCI (P000 scheme, midpoint)",
         "P000's discrete Lagrange-d'Alembert-Pontryagin collision integrator with the midpoint "
         "discrete constraint and the exact discrete energy balance at the impact point (near "
         "grazing the exact reflection): u and w exact between impacts, bounded O(h^2) energy "
         "kicks at impacts.",
         createDisk<LdapVci, O>},
        {"reduced", "Reduced (Chaplygin) VCI",
         "Integrates the reduced velocities (u, w), constant in flight, reconstructs (x, y) with "
         "the midpoint chord, finds the impact time by root finding and applies the reduced "
         "elastic reflection: energy conserved to round-off.",
         createDisk<ReducedDiskVci, O>},
        {"dla-002", "DLA of P002, as printed",
         "P002's discrete Lagrange-d'Alembert scheme with impacts as printed: position-only "
         "two-step recursion, impacts detected at inadmissible nodes only, impact equations (5) "
         "solved monolithically with the energy equality and the jump in -N_C + D°. At a nearly "
         "tangent contact the energy equality has no rebound root and the run stops.",
         createDisk<Dla002, O>},
    };
    info_.constraints = wall ? std::vector<std::string>{"wall-front", "wall-back"}
                             : std::vector<std::string>{"rim+", "rim-"};
    info_.defaultH = 0.01;
    info_.defaultTEnd = 100.0;
    info_.defaultTolerance = 1e-14;
  }

  const SystemInfo& info() const override { return info_; }

  SceneSpec scene(std::span<const double> parameters) const override {
    constexpr const auto& k = params<O>();
    const double R = parameters[k("R")];
    double size = 0.0;  // wall position or table radius
    if constexpr (O == DiskObstacle::Wall) {
      size = parameters[k("yw")];
    } else {
      size = parameters[k("a")];
    }
    SceneSpec s;
    s.view = ViewKind::Spatial;
    // Built in place (moving a BodyPart temporary trips GCC 12's -Wmaybe-uninitialized on the
    // std::variant in sanitizer builds).
    s.bodies.resize(1);
    s.bodies[0].name = "disk";
    BodyPart& part = s.bodies[0].parts.emplace_back();
    part.shape.emplace<CylinderShape>(CylinderShape{R, 0.15 * R});  // axle = body z
    part.color = {0.85f, 0.45f, 0.20f};
    part.showAxes = true;  // so that rolling is visible
    PlaneObstacle floor;
    floor.point = Eigen::Vector3d::Zero();
    floor.normal = Eigen::Vector3d::UnitZ();
    floor.halfExtent = O == DiskObstacle::Wall ? std::max(20.0 * R, 2.0 * std::fabs(size))
                                               : 1.5 * size;
    floor.followBody = O == DiskObstacle::Wall;
    if constexpr (O == DiskObstacle::Wall) {
      PlaneObstacle wallPlane;
      wallPlane.point = Eigen::Vector3d(0.0, size, 0.0);
      wallPlane.normal = -Eigen::Vector3d::UnitY();
      wallPlane.halfExtent = std::max(10.0 * R, std::fabs(size));
      wallPlane.color = {0.70f, 0.55f, 0.45f};
      s.obstacles = {floor, wallPlane};
      s.characteristicLength = std::max(5.0 * R, std::fabs(size));
    } else {
      DiscObstacle table;
      table.center = Eigen::Vector3d::Zero();
      table.normal = Eigen::Vector3d::UnitZ();
      table.radius = size;
      CylinderObstacle rim;
      rim.base = Eigen::Vector3d::Zero();
      rim.axis = Eigen::Vector3d::UnitZ();
      rim.radius = size;
      rim.height = R;  // the footprint end points are at the height of the centre
      rim.inside = true;
      rim.opacity = 0.3;
      s.obstacles = {floor, table, rim};
      s.characteristicLength = size;
    }
    s.trackedBody = 0;
    return s;
  }

 private:
  SystemInfo info_;
};

}  // namespace

const SystemDescription& diskWallSystem() {
  static const DiskSystem<DiskObstacle::Wall> system;
  return system;
}
const SystemDescription& diskTableSystem() {
  static const DiskSystem<DiskObstacle::Table> system;
  return system;
}

}  // namespace ricochet::nonholonomic
