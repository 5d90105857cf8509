// The ellipse of P000 §4.2 run by the LDAP collision integrator (see ellipse_ldap.hpp).
#include "core/nonholonomic/ellipse_ldap.hpp"

#include "core/model/parameter.hpp"
#include "core/nonholonomic/engine_simulation.hpp"

#include <Eigen/Geometry>

namespace ricochet::nonholonomic {
namespace {

using Engine = LdapVci<EllipseLdapModel>;

class EllipseLdapSimulation final : public EngineSimulation<Engine> {
 public:
  using EngineSimulation<Engine>::EngineSimulation;

  void sampleColumns(std::span<double> out) const override {
    const auto& q = state_.q;
    const auto& p = state_.p;
    for (int i = 0; i < 3; ++i) out[i] = q[i];
    for (int i = 0; i < 3; ++i) out[3 + i] = p[i];
    out[6] = p[0];  // mom.px: conserved (translation symmetry of L_d and of the floor)
    out[7] = p[2];  // mom.ptheta: piecewise constant
    out[8] = engine().lastSegmentEnergy(state_);
    out[9] = minGap();
  }
  void poses(std::span<Pose> out) const override {
    const auto& q = state_.q;
    out[0].position = Eigen::Vector3d(q[0], q[1], 0.0);
    out[0].rotation = Eigen::AngleAxisd(q[2], Eigen::Vector3d::UnitZ()).toRotationMatrix();
  }
};

}  // namespace

std::unique_ptr<Simulation> createEllipseLdapSimulation(const EllipseLdapSetup& setup,
                                                        std::string* error) {
  const EllipseLdapModel& model = setup.model;
  const double g0 = model.gap(0, setup.q0);
  if (!(g0 >= 0.0)) {
    if (error) {
      *error = "initial condition outside the admissible set: gap 'floor' = " + formatNumber(g0) +
               " < 0";
    }
    return nullptr;
  }
  LdapOptions opt;
  opt.discretisation = Discretisation::Midpoint;
  opt.tolerance = setup.tolerance;
  opt.reading = setup.reading;
  opt.projectionVariant = setup.projectionVariant;
  opt.restitution = setup.restitution;
  Engine engine(model, setup.h, opt);
  Eigen::Vector3d q0 = setup.q0, p0;
  double t0 = 0.0;
  if (setup.conversion == InitialConversion::Symmetric) {
    symmetricInitialState(engine.discreteLagrangian(), setup.q0, setup.v0, setup.h, q0, p0);
    t0 = -0.5 * setup.h;
    if (!(model.gap(0, q0) >= 0.0)) {
      q0 = setup.q0;  // starting on the floor: fall back to the Legendre start
      p0 = legendreInitialMomentum(model, q0, setup.v0);
      t0 = 0.0;
    }
  } else {
    p0 = legendreInitialMomentum(model, q0, setup.v0);
  }
  const Engine::State start = engine.initialState(q0, p0);
  std::vector<std::string> cols = {"q.x",    "q.y",        "q.theta",    "p.x",        "p.y",
                                   "p.theta", "mom.px",    "mom.ptheta", "e.discrete", "con.gap"};
  return std::make_unique<EllipseLdapSimulation>(std::move(engine), start, t0, std::move(cols),
                                                 setup.restitution < 1.0);
}

}  // namespace ricochet::nonholonomic
