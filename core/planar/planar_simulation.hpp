#pragma once
// The Simulation behind particle-floor, star-floor and ellipse-floor: one node state (q, p) of a
// PlanarModel advanced by a stepper (FmowIntegrator or Rk4EventIntegrator) through
// impact::StepperSimulation, its trace columns and pose. Also the shared create() path: admissibility of the initial state,
// the initial-condition conversion, and the choice of integrator by name.

#include "core/impact/stepper_simulation.hpp"
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

/// A planar run: the node state of a PlanarModel advanced by a stepper (FmowIntegrator or
/// Rk4EventIntegrator) through the shared StepperSimulation, with the planar trace columns and
/// the body's pose.
template <PlanarModel Model, class Integrator>
class PlanarSimulation final : public impact::StepperSimulation<Integrator> {
 public:
  using Base = impact::StepperSimulation<Integrator>;
  using Vec = typename Model::Vec;
  static constexpr int kDim = Model::kDim;
  static constexpr bool kHasDiscreteEnergy =
      requires(const Integrator& i, const PlanarState<Model>& s) { i.lastSegmentEnergy(s); };

  /// Starts at node (q0, p0) at t = 0, which must be admissible (checked by createPlanar).
  /// `dissipative` (restitution < 1) adds the trace column e.dissipated.
  PlanarSimulation(const Integrator& integrator, const Vec& q0, const Vec& p0,
                   bool dissipative = false)
      : Base(integrator, integrator.initialState(q0, p0)), dissipative_(dissipative) {
    for (int i = 0; i < kDim; ++i) columns_.push_back(std::string("q.") + Model::coordinateName(i));
    for (int i = 0; i < kDim; ++i) columns_.push_back(std::string("p.") + Model::coordinateName(i));
    columns_.push_back("mom.px");
    if constexpr (kDim == 3) columns_.push_back("mom.ptheta");
    if constexpr (kHasDiscreteEnergy) columns_.push_back("e.discrete");
    if (dissipative_) columns_.push_back("e.dissipated");
    columns_.push_back("con.gap");
  }

  EnergySplit energy() const override {
    const Model& model = this->stepper_.model();
    const Vec& p = this->state_.p;
    return {0.5 * p.dot(p.cwiseQuotient(model.massDiagonal)), model.potential(this->state_.q)};
  }
  double minGap() const override { return this->state_.gaps.minCoeff(); }
  std::span<const std::string> columns() const override { return columns_; }

  void sample(std::span<double> out) const override {
    const Vec& q = this->state_.q;
    const Vec& p = this->state_.p;
    std::size_t k = 0;
    for (int i = 0; i < kDim; ++i) out[k++] = q[i];
    for (int i = 0; i < kDim; ++i) out[k++] = p[i];
    out[k++] = p[0];                            // mom.px: conserved (Noether, x-translation)
    if constexpr (kDim == 3) out[k++] = p[2];   // mom.ptheta: constant between impacts
    if constexpr (kHasDiscreteEnergy) out[k++] = this->stepper_.lastSegmentEnergy(this->state_);
    if (dissipative_) out[k++] = this->dissipatedEnergy();
    out[k++] = minGap();
  }

  void poses(std::span<Pose> out) const override {
    if (out.empty()) return;
    const Vec& q = this->state_.q;
    out[0].position = Eigen::Vector3d(q[0], q[1], 0.0);
    if constexpr (kDim == 3) {
      out[0].rotation = Eigen::AngleAxisd(q[2], Eigen::Vector3d::UnitZ()).toRotationMatrix();
    } else {
      out[0].rotation.setIdentity();
    }
  }

  const Integrator& integrator() const { return this->stepper_; }
  const Vec& q() const { return this->state_.q; }
  const Vec& p() const { return this->state_.p; }

 private:
  bool dissipative_;
  std::vector<std::string> columns_;
};

/// Where a planar run starts: the model, the initial state (q0, qdot0) at t = 0, the position
/// initial conditions as text, for the admissibility message, and the coefficient of restitution.
template <PlanarModel Model>
struct PlanarStart {
  Model model;
  typename Model::Vec q0 = Model::Vec::Zero();
  typename Model::Vec qdot0 = Model::Vec::Zero();
  std::string where;
  double restitution = 1.0;  ///< e of Newton's law (docs/restitution.md)
};

/// The shared factory of the planar systems. Following FMOW, which prints no conversion of the
/// continuous initial data, the first node is (q0, p0 = M qdot0), so with uniform gravity the nodes
/// sample the exact free flight until the first impact
/// (docs/design-notes.md, "Initial conditions: from (q(0), v(0)) to the first node").
template <class Integrator, PlanarModel Model>
CreateResult createPlanar(const PlanarStart<Model>& start, const Scenario& scenario) {
  const Model& model = start.model;
  typename Model::GapVec g;
  model.gaps(start.q0, g);
  for (int j = 0; j < Model::kGaps; ++j) {
    if (!(g[j] >= 0.0)) {
      return {nullptr, "initial condition outside the admissible set: gap '" +
                           std::string(Model::gapName(j)) + "' = " + formatNumber(g[j]) +
                           " m < 0 at " + start.where};
    }
  }
  const typename Model::Vec p0 = model.massDiagonal.cwiseProduct(start.qdot0);
  typename Integrator::Options options;
  options.tolerance = scenario.integrator.tolerance;
  options.restitution = start.restitution;
  return {
      std::make_unique<PlanarSimulation<Model, Integrator>>(
          Integrator(model, scenario.integrator.h, options), start.q0, p0, start.restitution < 1.0),
      {}};
}

/// The two integrators every planar system offers, "variational" first (the default), with their
/// factories over the system's `start` (its model and initial state for a scenario).
template <PlanarModel Model>
std::vector<IntegratorInfo> planarIntegrators(
    std::function<PlanarStart<Model>(const Scenario&)> start) {
  return {
      {"variational", "Variational collision integrator (FMOW)",
       "Velocity Verlet (trapezoid discrete Lagrangian, FMOW (71)) with variational impacts: the "
       "impact time is an unknown, the impact point lies on the boundary, the discrete energy is "
       "equal on both sides of every impact (near grazing: the exact reflection) and p_x is "
       "conserved exactly; the energy stays in a bounded O(h^2) band. FMOW 2003 §3-§4.",
       [start](const Scenario& sc) { return createPlanar<FmowIntegrator<Model>>(start(sc), sc); }},
      {"rk4-event", "RK4 with event location (baseline)",
       "Classical 4th-order Runge-Kutta, first gap crossing located by Brent along the step, "
       "elastic reflection at the event. Not symplectic: its energy drifts for nonlinear forces "
       "(with uniform gravity its flight is exact).",
       [start](const Scenario& sc) {
         return createPlanar<Rk4EventIntegrator<Model>>(start(sc), sc);
       }},
  };
}

}  // namespace ricochet::planar
