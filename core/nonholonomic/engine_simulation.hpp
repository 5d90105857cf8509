#pragma once
// The Simulation part shared by the nonholonomic systems: the shared impact::StepperSimulation
// (step count, time grid, impact records, failure messages) plus the energy split and the smallest
// gap, which every nonholonomic engine (LdapVci, ReducedDiskVci, Dla002) exposes the same way:
//   const Model& model();  const Vec& q(const State&);  double energy(const State&)  (node energy H)
// A system derives from it for its trace columns and poses.

#include "core/impact/stepper_simulation.hpp"
#include "core/nonholonomic/ldap_model.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ricochet::nonholonomic {

template <class Engine>
class EngineSimulation : public impact::StepperSimulation<Engine> {
 public:
  using Base = impact::StepperSimulation<Engine>;
  using Model = typename std::remove_cvref_t<decltype(std::declval<const Engine&>().model())>;
  using Vec = typename Model::Vec;
  using State = typename Engine::State;

  /// `t0`: time of node 0 (s).
  EngineSimulation(Engine engine, const State& state, double t0, std::vector<std::string> columns)
      : Base(std::move(engine), state, t0), columns_(std::move(columns)) {}

  std::span<const std::string> columns() const override { return columns_; }

  EnergySplit energy() const override {
    const double v = engine().model().potential(engine().q(this->state_));
    return EnergySplit{engine().energy(this->state_) - v, v};
  }
  double minGap() const override {
    return nonholonomic::minGap(engine().model(), engine().q(this->state_));
  }

  const Engine& engine() const { return this->stepper_; }

 private:
  std::vector<std::string> columns_;
};

}  // namespace ricochet::nonholonomic
