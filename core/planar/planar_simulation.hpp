#pragma once
// The Simulation behind particle-floor, star-floor and ellipse-floor: one node state (q, p) of a
// PlanarModel advanced by an integrator (FmowIntegrator or Rk4EventIntegrator), its trace columns,
// impact records and pose. Also the shared create() path: admissibility of the initial state,
// the initial-condition conversion, and the choice of integrator by name.

#include "core/model/parameter.hpp"
#include "core/model/system.hpp"
#include "core/planar/fmow_integrator.hpp"
#include "core/planar/planar_model.hpp"
#include "core/planar/rk4_event_integrator.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace ricochet::planar {

/// Counters a planar run keeps about its impact solves (for tests and diagnostics; there is no
/// warning channel in AdvanceResult).
struct PlanarDiagnostics {
  std::int64_t reflectionFallbacks = 0;  ///< grazing impacts resolved by pure reflection (P12)
  std::int64_t jointFallbacks = 0;       ///< (78) without solution, sequential impulse used
  double maxEnergyResidual = 0.0;        ///< max |F(mu)| over all impacts, J
  std::int64_t multiImpactSteps = 0;     ///< steps with more than one impact
  int maxImpactsInStep = 0;
};

class PlanarSimulationBase : public Simulation {
 public:
  virtual PlanarDiagnostics diagnostics() const = 0;
};

/// The two integrators every planar system offers, "variational" first (the default).
inline std::vector<IntegratorInfo> planarIntegrators() {
  return {
      {"variational", "Variational collision integrator (FMOW)",
       "Velocity Verlet (trapezoid discrete Lagrangian, FMOW (71)) with variational impacts: the "
       "impact time is an unknown, the impact point lies on the boundary, the discrete energy is "
       "equal on both sides of every impact (near grazing: the exact reflection) and p_x is "
       "conserved exactly; the energy stays in a bounded O(h^2) band. FMOW 2003 §3-§4."},
      {"rk4-event", "RK4 with event location (baseline)",
       "Classical 4th-order Runge-Kutta, first gap crossing located by Brent along the step, "
       "elastic reflection at the event. Not symplectic: its energy drifts for nonlinear forces "
       "(with uniform gravity its flight is exact)."},
  };
}

template <PlanarModel Model, class Integrator>
class PlanarSimulation final : public PlanarSimulationBase {
 public:
  using Vec = typename Model::Vec;
  using GapVec = typename Model::GapVec;
  static constexpr int kDim = Model::kDim;
  static constexpr bool kHasDiscreteEnergy =
      requires(const Integrator& i, const Vec& v) { i.lastSegmentEnergy(v, v); };

  /// Starts at node (q0, p0) at t = 0, which must be admissible (checked by createPlanar).
  PlanarSimulation(const Integrator& integrator, const Vec& q0, const Vec& p0)
      : integrator_(integrator), q_(q0), p_(p0) {
    integrator_.model().gaps(q_, gaps_);
    for (int i = 0; i < kDim; ++i) columns_.push_back(std::string("q.") + Model::coordinateName(i));
    for (int i = 0; i < kDim; ++i) columns_.push_back(std::string("p.") + Model::coordinateName(i));
    columns_.push_back("mom.px");
    if constexpr (kDim == 3) columns_.push_back("mom.ptheta");
    if constexpr (kHasDiscreteEnergy) columns_.push_back("e.discrete");
    columns_.push_back("con.gap");
  }

  std::int64_t step() const override { return step_; }
  double time() const override { return static_cast<double>(step_) * integrator_.timeStep(); }
  std::int64_t impactCount() const override { return impacts_; }
  double timeStep() const override { return integrator_.timeStep(); }

  AdvanceResult advance(std::int64_t maxSteps, ImpactSink* sink) override {
    AdvanceResult result;
    for (std::int64_t i = 0; i < maxSteps; ++i) {
      const RunStatus status = integrator_.step(q_, p_, gaps_);
      if (status != RunStatus::Ok) [[unlikely]] {
        result.status = status;
        result.message = failureMessage();
        return result;
      }
      ++step_;
      ++result.stepsTaken;
      if (integrator_.lastStep().impactCount > 0) [[unlikely]] reportImpacts(sink);
    }
    return result;
  }

  EnergySplit energy() const override {
    return {0.5 * p_.dot(p_.cwiseQuotient(integrator_.model().massDiagonal)),
            integrator_.model().potential(q_)};
  }
  double minGap() const override { return gaps_.minCoeff(); }
  std::span<const std::string> columns() const override { return columns_; }

  void sample(std::span<double> out) const override {
    std::size_t k = 0;
    for (int i = 0; i < kDim; ++i) out[k++] = q_[i];
    for (int i = 0; i < kDim; ++i) out[k++] = p_[i];
    out[k++] = p_[0];                            // mom.px: conserved (Noether, x-translation)
    if constexpr (kDim == 3) out[k++] = p_[2];   // mom.ptheta: constant between impacts
    if constexpr (kHasDiscreteEnergy) out[k++] = integrator_.lastSegmentEnergy(q_, p_);
    out[k++] = minGap();
  }

  void poses(std::span<Pose> out) const override {
    if (out.empty()) return;
    out[0].position = Eigen::Vector3d(q_[0], q_[1], 0.0);
    if constexpr (kDim == 3) {
      out[0].rotation = Eigen::AngleAxisd(q_[2], Eigen::Vector3d::UnitZ()).toRotationMatrix();
    } else {
      out[0].rotation.setIdentity();
    }
  }

  PlanarDiagnostics diagnostics() const override { return diagnostics_; }
  const Integrator& integrator() const { return integrator_; }
  const Vec& q() const { return q_; }
  const Vec& p() const { return p_; }

 private:
  void reportImpacts(ImpactSink* sink) {
    const auto& report = integrator_.lastStep();
    const double h = integrator_.timeStep();
    const double tStart = static_cast<double>(step_ - 1) * h;
    diagnostics_.maxImpactsInStep = std::max(diagnostics_.maxImpactsInStep, report.impactCount);
    if (report.impactCount > 1) ++diagnostics_.multiImpactSteps;
    for (int i = 0; i < report.impactCount; ++i) {
      const PlanarImpact<Vec>& imp = report.impacts[i];
      ++impacts_;
      if (imp.reflectionFallback) ++diagnostics_.reflectionFallbacks;
      if (imp.jointFallback) ++diagnostics_.jointFallbacks;
      diagnostics_.maxEnergyResidual =
          std::max(diagnostics_.maxEnergyResidual, std::fabs(imp.energyResidual));
      if (!sink) continue;
      ImpactRecord r;
      r.step = step_;
      r.t = tStart + imp.s * h;
      r.alpha = imp.s;
      r.constraint = imp.gap;
      r.energyBefore = integrator_.nodeEnergy(imp.q, imp.pMinus);
      r.energyAfter = integrator_.nodeEnergy(imp.q, imp.pPlus);
      r.impulse = imp.mu;
      r.reflected = imp.reflectionFallback;
      r.contactPoint = integrator_.model().contactPoint(imp.gap, imp.q);
      sink->onImpact(r);
    }
  }

  std::string failureMessage() const {
    const auto& report = integrator_.lastStep();
    const StepFailure& f = report.failure;
    const double h = integrator_.timeStep();
    const double t = static_cast<double>(step_) * h;
    std::string msg;
    switch (report.status) {
      case RunStatus::NonFinite: msg += "the state became non-finite (NaN or inf)"; break;
      case RunStatus::Zeno:
        msg += std::string(kZenoText) + " (cap " + std::to_string(static_cast<int>(f.value)) + ")";
        break;
      default: msg += f.what; break;
    }
    if (f.gap >= 0) {
      msg += std::string(" on gap '") + Model::gapName(f.gap) + "' at t = " +
             formatNumber(t + f.s * h) + " s";
    }
    if (report.status == RunStatus::SolverFailed && f.value != 0.0) {
      msg += " (residual " + formatNumber(f.value) + ")";
    }
    return msg;
  }

  Integrator integrator_;
  Vec q_, p_;
  GapVec gaps_;
  std::int64_t step_ = 0;
  std::int64_t impacts_ = 0;
  PlanarDiagnostics diagnostics_;
  std::vector<std::string> columns_;
};

/// The shared create() path of the planar systems. The initial state is (q0, qdot0) at t = 0;
/// following FMOW (no conversion printed, spec §3.6/P4) the first node is (q0, p0 = M qdot0), so
/// with uniform gravity the nodes sample the exact free flight until the first impact.
/// `where` names the position initial conditions for the admissibility message.
template <PlanarModel Model>
CreateResult createPlanar(const Model& model, const typename Model::Vec& q0,
                          const typename Model::Vec& qdot0, const Scenario& scenario,
                          const std::string& where) {
  typename Model::GapVec g;
  model.gaps(q0, g);
  for (int j = 0; j < Model::kGaps; ++j) {
    if (!(g[j] >= 0.0)) {
      return {nullptr, "initial condition outside the admissible set: gap '" +
                           std::string(Model::gapName(j)) + "' = " + formatNumber(g[j]) +
                           " m < 0 at " + where};
    }
  }
  const typename Model::Vec p0 = model.massDiagonal.cwiseProduct(qdot0);
  const IntegratorSettings& in = scenario.integrator;
  if (in.name == "variational") {
    FmowOptions options;
    options.tolerance = in.tolerance;
    return {std::make_unique<PlanarSimulation<Model, FmowIntegrator<Model>>>(
                FmowIntegrator<Model>(model, in.h, options), q0, p0),
            {}};
  }
  if (in.name == "rk4-event") {
    Rk4EventOptions options;
    options.tolerance = in.tolerance;
    return {std::make_unique<PlanarSimulation<Model, Rk4EventIntegrator<Model>>>(
                Rk4EventIntegrator<Model>(model, in.h, options), q0, p0),
            {}};
  }
  return {nullptr, "unknown integrator '" + in.name + "' for " + scenario.system +
                       " (available: variational, rk4-event)"};
}

}  // namespace ricochet::planar
