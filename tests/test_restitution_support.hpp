#pragma once
// Checks shared by the restitution suites (docs/restitution.md): Newton's law impact by impact
// (spec R2) on any StepperSimulation, and the registry runs of the settling tests.

#include "core/impact/stepper_simulation.hpp"
#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"

#include <Eigen/Core>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace ricochet::testing {

/// The worst deviations from Newton's law over the single-contact impacts of a run (spec R2):
///   energy:     |E+ - (E- - (1/2) (1 - e^2) u-^2 / k)| / max(|E-|, K-)
///   ratio:      |u+ + e u-| / |u-| (for a grazing contact, |u-| < 1e-3 |n| |v|: / 1e-3 |n| |v|)
///   tangent:    the momentum along the contact's tangent (in the allowed velocities), relative
///   constraint: |W(q) v+| of the velocity constraints after the jump (nonholonomic), relative
struct NewtonCheck {
  int impacts = 0;  ///< single-contact impacts checked
  int settled = 0;  ///< steps in which a contact settled
  double energy = 0.0, ratio = 0.0, tangent = 0.0, constraint = 0.0;
  RunStatus status = RunStatus::Ok;
};

/// Inverse inertia W on momenta and the allowed velocities of a model: M^-1 for a planar model
/// (massDiagonal), X G^-1 X^T for a model with velocity constraints (distributionBasis).
template <class Model>
Eigen::MatrixXd inverseInertia(const Model& model, const Eigen::VectorXd& q) {
  if constexpr (requires { model.massDiagonal; }) {
    return model.massDiagonal.cwiseInverse().asDiagonal();
  } else {
    const auto X = model.distributionBasis(q);
    const auto G = (X.transpose() * model.massMatrix(q) * X).eval();
    return X * G.partialPivLu().solve(X.transpose());
  }
}

/// Runs `steps` steps of `sim` (a StepperSimulation of Engine) and checks every impact that
/// involves one contact only: those of steps that start with nothing held, up to the one after
/// which a contact settles (the impacts while contacts are held are simultaneous ones).
template <class Engine>
NewtonCheck checkNewtonImpacts(Simulation& simulation, double e, std::int64_t steps) {
  auto& sim = dynamic_cast<impact::StepperSimulation<Engine>&>(simulation);
  const auto& engine = sim.stepper();
  const auto& model = engine.model();
  NewtonCheck out;
  for (std::int64_t k = 0; k < steps; ++k) {
    const bool free = sim.state().held == 0;
    const AdvanceResult r = sim.advance(1, nullptr);
    if (!r.ok()) {
      out.status = r.status;
      return out;
    }
    const auto& report = sim.lastStep();
    if (report.settledAt >= 0.0) ++out.settled;
    if (!free) continue;
    for (const auto& imp : report) {
      const Eigen::VectorXd q = imp.before.q, pm = imp.before.p, pp = imp.after.p;
      const Eigen::VectorXd n = model.gapGradient(imp.gap, imp.before.q);
      const Eigen::MatrixXd W = inverseInertia(model, q);
      const double u = n.dot(W * pm), kk = n.dot(W * n), up = n.dot(W * pp);
      const double eMinus = engine.impactEnergy(imp.before), ePlus = engine.impactEnergy(imp.after);
      const double kinetic = 0.5 * pm.dot(W * pm);
      const double expected = eMinus - 0.5 * (1.0 - e * e) * u * u / kk;
      out.energy =
          std::max(out.energy, std::fabs(ePlus - expected) / std::max(std::fabs(eMinus), kinetic));
      // Relative to |u-|, or to the round-off of a rate at this speed for a grazing contact.
      const double rateScale = std::max(std::fabs(u), 1e-3 * n.norm() * (W * pm).norm());
      out.ratio = std::max(out.ratio, std::fabs(up + e * u) / rateScale);
      // The jump is along W n: p+ - p- is a multiple of n up to reactions W cannot see.
      const Eigen::VectorXd dv = W * (pp - pm), wn = W * n;
      const double along = dv.dot(wn) / wn.squaredNorm();
      const double scale = (W * pm).norm() + 1e-300;
      out.tangent = std::max(out.tangent, (dv - along * wn).norm() / scale);
      if constexpr (requires { model.constraintMatrix(imp.before.q); }) {
        const auto A = model.constraintMatrix(imp.before.q);
        if (A.rows() > 0) {
          const Eigen::VectorXd v = W * pp;
          out.constraint = std::max(out.constraint, (A * v).norm() / (v.norm() + 1e-300));
        }
      }
      ++out.impacts;
      if (report.settledAt >= 0.0 && imp.s == report.settledAt) break;  // held ones follow
    }
  }
  return out;
}

/// The default scenario of `system` with `integrator` and the named values set.
inline Scenario scenarioWith(const std::string& system, const std::string& integrator,
                             const std::map<std::string, double>& values, double tEnd) {
  Scenario sc = defaultScenario(*findSystem(system));
  sc.integrator.name = integrator;
  for (const auto& [name, value] : values) {
    const std::string error = io::setScenarioValue(sc, name, value);
    if (!error.empty()) throw std::runtime_error(error);
  }
  if (tEnd > 0.0) sc.tEnd = tEnd;
  return sc;
}

}  // namespace ricochet::testing
