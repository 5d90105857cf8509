// ellipse-floor: a rotating elliptic plate bouncing on a floor, SE(2) (P000 §4.2).
#include "core/nonholonomic/ellipse_ldap.hpp"
#include "core/planar/planar_simulation.hpp"
#include "core/planar/planar_systems.hpp"

#include <numbers>

namespace ricochet::planar {
namespace {

using Model = EllipseFloorModel<>;

constexpr NameList kParams{"m", "g", "a", "b", "restitution"};
// P000's order (theta, x, y) for q(0) and v(0); converted to (x, y, theta) in start().
constexpr NameList kInitial{"theta0", "x0", "y0", "omega0", "vx0", "vy0"};

PlanarStart<Model> start(const Scenario& sc) {
  const std::span<const double> p(sc.parameters), ic(sc.initial);
  const double m = p[kParams("m")];
  PlanarStart<Model> s;
  Model& model = s.model;
  model.potentialTerm = UniformGravity{m, p[kParams("g")]};
  model.a = p[kParams("a")];
  model.b = p[kParams("b")];
  model.massDiagonal = Model::Vec(m, m, m * (model.a * model.a + model.b * model.b) / 4.0);
  model.lengthScale = std::max(model.a, model.b);
  // P000 orders the coordinates (theta, x, y); internally they are (x, y, theta).
  s.q0 = Model::Vec(ic[kInitial("x0")], ic[kInitial("y0")], ic[kInitial("theta0")]);
  s.qdot0 = Model::Vec(ic[kInitial("vx0")], ic[kInitial("vy0")], ic[kInitial("omega0")]);
  s.where = "y0 = " + formatNumber(s.q0[1]) + ", theta0 = " + formatNumber(s.q0[2]);
  s.restitution = p[kParams("restitution")];
  return s;
}

/// P000's own scheme on the ellipse (ellipse_ldap.hpp), in the consistent or the literal reading.
CreateResult createLdap(const Scenario& sc, nonholonomic::ImpactReading reading) {
  const PlanarStart<Model> s = start(sc);
  if (s.restitution < 1.0 && reading == nonholonomic::ImpactReading::Paper) {
    // P000's literal impact equation is an energy equality: it has no restitution.
    return {nullptr, "parameter 'restitution' = " + formatNumber(s.restitution) +
                         " is not available with integrator 'ldap-paper' (P000's elastic impact "
                         "equation as printed): use 'ldap' or 'variational'"};
  }
  nonholonomic::EllipseLdapSetup setup;
  setup.model.m = s.model.massDiagonal[0];
  setup.model.g = s.model.potentialTerm.g;
  setup.model.a = s.model.a;
  setup.model.b = s.model.b;
  setup.model.lengthScale = s.model.lengthScale;
  setup.q0 = s.q0;
  setup.v0 = s.qdot0;
  setup.h = sc.integrator.h;
  setup.tolerance = sc.integrator.tolerance;
  setup.reading = reading;
  setup.restitution = s.restitution;
  setup.projectionVariant = 0;  // P000's pi_S
  // Node 0 = (q(0), M v(0)) at t = 0, as for "variational", so all the integrators start from the
  // same discrete state and their traces line up in time.
  setup.conversion = nonholonomic::InitialConversion::Legendre;
  std::string error;
  std::unique_ptr<Simulation> sim = nonholonomic::createEllipseLdapSimulation(setup, &error);
  if (!sim) return {nullptr, error + " at " + s.where};
  return {std::move(sim), {}};
}

class EllipseFloor final : public SystemDescription {
 public:
  EllipseFloor() {
    readsNames(kParams.view(), kInitial.view());
    info_.id = "ellipse-floor";
    info_.title = "Rotating ellipse on a floor";
    info_.source = "000 §4.2";
    info_.summary =
        "A uniform elliptic plate falls under gravity, spinning, and bounces elastically on the "
        "floor at its lowest point. Initial conditions are listed in P000's order (theta, x, y). "
        "p_x is conserved exactly, p_theta is constant between impacts; the impact sequence is "
        "chaotic after a few bounces.";
    info_.parameters = {
        {"m", "kg", 1.0, 0.0, kUnbounded, true, false, "Mass of the plate (P000 §4.2: 1)."},
        {"g", "m/s^2", 9.8, 0.0, kUnbounded, false, false,
         "Gravitational acceleration along -y (P000 §4.2: 9.8)."},
        {"a", "m", 1.0, 0.0, kUnbounded, true, false,
         "Semi-axis along the body x axis; I = m (a^2 + b^2)/4 is derived (uniform plate)."},
        {"b", "m", 0.5, 0.0, kUnbounded, true, false,
         "Semi-axis along the body y axis; I = m (a^2 + b^2)/4 is derived (uniform plate)."},
        restitutionSpec(),
    };
    // P000's order (theta, x, y); kInitial reads them in this order.
    info_.initial = {
        {"theta0", "rad", std::numbers::pi / 2.0, -kUnbounded, kUnbounded, false, false,
         "Initial angle of the a axis from the horizontal (P000: pi/2, a vertical)."},
        {"x0", "m", 0.0, -kUnbounded, kUnbounded, false, false, "Initial horizontal position of the centre."},
        {"y0", "m", 3.5, -kUnbounded, kUnbounded, false, false,
         "Initial height of the centre (the lowest point must be at or above the floor)."},
        {"omega0", "rad/s", -3.0, -kUnbounded, kUnbounded, false, false,
         "Initial angular velocity (P000's v_theta)."},
        {"vx0", "m/s", 2.0, -kUnbounded, kUnbounded, false, false, "Initial horizontal velocity."},
        {"vy0", "m/s", 0.0, -kUnbounded, kUnbounded, false, false, "Initial vertical velocity."},
    };
    info_.integrators = planarIntegrators<Model>(start);
    // P000's own scheme. Without velocity constraints its consistent reading is FMOW's scheme
    // with the midpoint discrete Lagrangian (= (71) for linear V; test U6); the literal reading
    // of P000's (I8) ("paper mode") reproduces P000's figures (docs/nonholonomic-vci.md,
    // "Reading P000's impact equation: (I8) and (I8')").
    info_.integrators.push_back(
        {"ldap", "LDAP collision integrator (P000, consistent reading)",
         "P000's discrete Lagrange-d'Alembert-Pontryagin collision integrator (Algorithm 1) with "
         "the impact equation read consistently (the momentum tangent to the boundary is "
         "continuous): the same trajectory as FMOW's, computed by P000's solves. P000 2024 §3-§4.",
         [](const Scenario& sc) { return createLdap(sc, nonholonomic::ImpactReading::Consistent); }});
    info_.integrators.push_back(
        {"ldap-paper", "LDAP, P000's literal impact equation (paper mode)",
         "P000's Algorithm 1 with its impact equation (I8) as printed, closed by least squares "
         "with P000's projection pi_S. Energy is still balanced, but the phi' p_y part of the "
         "incoming momentum is lost from the tangential balance, so the rebound direction and the "
         "impact sequence differ from the physical ones: 1 impact in [0, 2] s and about 18 in "
         "25 s, as in P000's Figures 1-2 (correct physics gives 2 and about 25).",
         [](const Scenario& sc) { return createLdap(sc, nonholonomic::ImpactReading::Paper); }});
    info_.constraints = {"floor"};
    info_.defaultH = 0.01;
    info_.defaultTEnd = 25.0;
    info_.defaultTolerance = 1e-14;
  }

  const SystemInfo& info() const override { return info_; }

  SceneSpec scene(std::span<const double> parameters) const override {
    const double a = parameters[kParams("a")], b = parameters[kParams("b")];
    PrismShape ellipse;
    constexpr int kPoints = 96;
    for (int i = 0; i < kPoints; ++i) {
      const double t = 2.0 * std::numbers::pi * i / kPoints;
      ellipse.outline.emplace_back(a * std::cos(t), b * std::sin(t));
    }
    ellipse.depth = 0.2 * std::max(a, b);
    SceneSpec s;
    s.view = ViewKind::Planar;
    BodySpec body;
    body.name = "ellipse";
    body.parts.push_back(BodyPart{ellipse, Pose{}, {0.85f, 0.45f, 0.20f}, true});
    s.bodies.push_back(std::move(body));
    PlaneObstacle floor;
    floor.normal = Eigen::Vector3d::UnitY();
    floor.halfExtent = 5.0 * std::max(a, b);
    s.obstacles.push_back(floor);
    s.characteristicLength = std::max(a, b);
    return s;
  }

 private:
  SystemInfo info_;
};

}  // namespace

const SystemDescription& ellipseFloorSystem() {
  static const EllipseFloor system;
  return system;
}

}  // namespace ricochet::planar
