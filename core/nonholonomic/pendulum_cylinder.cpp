// The "pendulum-cylinder" system (P000 §4.3): model data, scene and simulation.
#include "core/nonholonomic/pendulum_cylinder.hpp"

#include "core/model/parameter.hpp"
#include "core/nonholonomic/engine_simulation.hpp"

#include <Eigen/Geometry>

#include <cmath>
#include <numbers>

namespace ricochet::nonholonomic {
namespace {

using Engine = LdapVci<PendulumCylinderModel>;
using Vec = PendulumCylinderModel::Vec;

constexpr NameList kParams{"m", "g", "l", "R", "restitution"};
constexpr NameList kInitial{"theta0", "phi0", "thetadot0"};

PendulumCylinderModel modelFrom(std::span<const double> p) {
  PendulumCylinderModel model;
  model.m = p[kParams("m")];
  model.g = p[kParams("g")];
  model.l = p[kParams("l")];
  model.R = p[kParams("R")];
  model.lengthScale = model.l;
  return model;
}

class PendulumSimulation final : public EngineSimulation<Engine> {
 public:
  using EngineSimulation<Engine>::EngineSimulation;

  void sampleColumns(std::span<double> out) const override {
    const Engine& e = engine();
    const Vec& q = e.q(state_);
    const Vec& p = e.p(state_);
    out[0] = q[0];
    out[1] = q[1];
    out[2] = p[0];
    out[3] = p[1];
    out[4] = p[1];                                    // mom.pphi (not conserved: d/dphi not in Delta)
    out[5] = q[1] - PendulumCylinderModel::F(q[0]);   // mom.invariant, constant in the continuum
    out[6] = e.lastSegmentEnergy(state_);             // e.discrete = E_d of the last segment
    out[7] = e.lastSegmentConstraint(state_)[0];      // con.omega = W(psi) w, rad/s
    out[8] = minGap();                                // con.gap, m
  }

  void poses(std::span<Pose> out) const override {
    const Eigen::Vector3d bob = engine().model().bob(state_.q);
    out[0].position = bob;
    out[0].rotation.setIdentity();
    const double len = bob.norm();
    out[1].position = 0.5 * bob;
    out[1].rotation = len > 0.0 ? Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(),
                                                                      bob / len)
                                      .toRotationMatrix()
                                : Eigen::Matrix3d::Identity();
  }
};

/// The factory of both schemes: the rectangle scheme starts with P000's forward conversion, the
/// midpoint one with the Legendre transform.
CreateResult createPendulum(const Scenario& sc, Discretisation discretisation) {
  const PendulumCylinderModel model = modelFrom(sc.parameters);
  const std::span<const double> ic(sc.initial);
  const Vec q0(ic[kInitial("theta0")], ic[kInitial("phi0")]);
  for (int j = 0; j < PendulumCylinderModel::kGaps; ++j) {
    const double gj = model.gap(j, q0);
    if (gj < 0.0) {
      return {nullptr, "initial condition outside the admissible set: gap '" +
                           std::string(PendulumCylinderModel::gapName(j)) + "' = " +
                           formatNumber(gj) + " < 0 (l |sin theta0| must be <= R)"};
    }
  }
  const double thetaDot = ic[kInitial("thetadot0")];
  const Vec v0(thetaDot, PendulumCylinderModel::f(q0[0]) * thetaDot);  // v(0) in Delta(q(0))
  LdapOptions opt;
  opt.tolerance = sc.integrator.tolerance;
  opt.discretisation = discretisation;
  opt.restitution = sc.parameters[kParams("restitution")];
  const double h = sc.integrator.h;
  // Midpoint: the Legendre transform. Rectangle: the forward conversion, so the first step goes
  // to q(0) + h v(0) exactly (docs/nonholonomic-vci.md, "Initial data").
  const Vec p0 = discretisation == Discretisation::Midpoint
                     ? legendreInitialMomentum(model, q0, v0)
                     : forwardInitialMomentum(
                           DiscreteLagrangian<PendulumCylinderModel>(model, discretisation), q0,
                           v0, h);
  Engine engine(model, h, opt);
  const Engine::State start = engine.initialState(q0, p0);
  if (!start.last.ok) {
    return {nullptr, "could not start the pendulum at theta0 = " + formatNumber(q0[0]) +
                         " rad: the initial regular solve failed"};
  }
  std::vector<std::string> cols = {"q.theta",   "q.phi",         "p.theta",    "p.phi",
                                   "mom.pphi",  "mom.invariant", "e.discrete", "con.omega",
                                   "con.gap"};
  const bool dissipative = opt.restitution < 1.0;
  return {std::make_unique<PendulumSimulation>(std::move(engine), start, 0.0, std::move(cols),
                                               dissipative),
          {}};
}

class PendulumCylinderSystem final : public SystemDescription {
 public:
  PendulumCylinderSystem() {
    readsNames(kParams.view(), kInitial.view());
    info_.id = "pendulum-cylinder";
    info_.title = "Nonholonomic spherical pendulum inside a cylinder";
    info_.source = "000 §4.3";
    info_.summary =
        "A spherical pendulum of length l whose azimuthal rate is tied to its polar rate by the "
        "velocity constraint phidot = (pi + cos^2 theta) thetadot swings inside a vertical "
        "cylinder of radius R and bounces elastically off it (l |sin theta| <= R). theta is "
        "measured from the upward vertical and never wrapped; phi - F(theta) is an invariant of "
        "the constraint. Integrated with P000's discrete Lagrange-d'Alembert-Pontryagin "
        "collision integrator.";
    const double pi = std::numbers::pi;
    info_.parameters = {
        {"m", "kg", 1.0, 0.0, kUnbounded, true, false, "Mass of the bob."},
        {"g", "m/s^2", 9.8, 0.0, kUnbounded, false, false, "Gravitational acceleration."},
        {"l", "m", 2.0, 0.0, kUnbounded, true, false, "Length of the pendulum."},
        {"R", "m", 1.5, 0.0, kUnbounded, true, false,
         "Radius of the cylinder around the vertical through the pivot (no contact if R >= l)."},
        restitutionSpec(),
    };
    info_.initial = {
        {"theta0", "rad", 0.75 * pi, -kUnbounded, kUnbounded, false, false,
         "Initial polar angle from the upward vertical (pi = hanging down); l |sin theta0| <= R."},
        {"phi0", "rad", 0.0, -kUnbounded, kUnbounded, false, false, "Initial azimuth."},
        {"thetadot0", "rad/s", 0.25 * pi, -kUnbounded, kUnbounded, false, false,
         "Initial polar rate; the azimuthal rate follows from the constraint, "
         "phidot0 = (pi + cos^2 theta0) thetadot0."},
    };
    info_.integrators = {
        {"variational", "LDAP VCI, rectangle (P000)",
         "P000's (+) discrete Lagrange-d'Alembert-Pontryagin collision integrator with the "
         "rectangle retraction R_q(v) = q + h v, as in the paper: first order; the energy stays "
         "close but creeps upward (P000 Fig. 4).",
         [](const Scenario& sc) { return createPendulum(sc, Discretisation::Rectangle); }},
        {"variational-midpoint", "LDAP VCI, midpoint",
         "The same collision integrator with the symmetric midpoint discrete Lagrangian and "
         "constraint (a proposal, not in P000): second order and time-symmetric.",
         [](const Scenario& sc) { return createPendulum(sc, Discretisation::Midpoint); }},
    };
    info_.constraints = {"cylinder+", "cylinder-"};
    info_.defaultH = 1e-3;
    info_.defaultTEnd = 5.0;
    info_.defaultTolerance = 1e-14;
  }

  const SystemInfo& info() const override { return info_; }

  SceneSpec scene(std::span<const double> parameters) const override {
    const double l = parameters[kParams("l")], R = parameters[kParams("R")];
    SceneSpec s;
    s.view = ViewKind::Spatial;
    // Parts are built in place (moving a BodyPart temporary trips GCC 12's -Wmaybe-uninitialized
    // on the std::variant in sanitizer builds).
    s.bodies.resize(2);
    s.bodies[0].name = "bob";
    BodyPart& ball = s.bodies[0].parts.emplace_back();
    ball.shape.emplace<SphereShape>(SphereShape{0.06 * l});
    ball.color = {0.85f, 0.45f, 0.20f};
    s.bodies[1].name = "rod";
    BodyPart& stick = s.bodies[1].parts.emplace_back();
    stick.shape.emplace<CylinderShape>(CylinderShape{0.008 * l, l});
    stick.color = {0.35f, 0.35f, 0.38f};
    CylinderObstacle cyl;
    cyl.base = Eigen::Vector3d(0.0, 0.0, -1.1 * l);
    cyl.axis = Eigen::Vector3d::UnitZ();
    cyl.radius = R;
    cyl.height = 2.2 * l;
    cyl.inside = true;
    s.obstacles = {cyl};
    s.trackedBody = 0;
    s.characteristicLength = l;
    return s;
  }

 private:
  SystemInfo info_;
};

}  // namespace

const SystemDescription& pendulumCylinderSystem() {
  static const PendulumCylinderSystem system;
  return system;
}

}  // namespace ricochet::nonholonomic
