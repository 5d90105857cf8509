#pragma once
// A nonholonomic stepper driven step by step in a test: the constant stepper (LdapVci,
// ReducedDiskVci, Dla002), one run's state and its step report, with the stepper's state queries
// as members (e.q() for engine.q(state), ...). Test-only.

#include "core/model/system.hpp"

#include <concepts>
#include <utility>

namespace nhtest {

template <class Engine>
class Driven {
 public:
  using State = typename Engine::State;
  using Report = typename Engine::Report;

  template <class... Args>
    requires std::constructible_from<Engine, Args...>
  explicit Driven(Args&&... args) : engine_(std::forward<Args>(args)...) {}

  /// Sets the state from the stepper's initialState(args...).
  template <class... Args>
  void reset(Args&&... args) {
    state_ = engine_.initialState(std::forward<Args>(args)...);
  }
  ricochet::RunStatus step() { return engine_.step(state_, report_); }
  const Report& lastStep() const { return report_; }

  const Engine& engine() const { return engine_; }
  const Engine* operator->() const { return &engine_; }
  const State& state() const { return state_; }
  const auto& model() const { return engine_.model(); }
  double timeStep() const { return engine_.timeStep(); }
  decltype(auto) q() const { return engine_.q(state_); }
  decltype(auto) p() const { return engine_.p(state_); }
  double energy() const { return engine_.energy(state_); }
  double lastSegmentTau() const { return engine_.lastSegmentTau(state_); }
  double lastSegmentEnergy() const { return engine_.lastSegmentEnergy(state_); }
  decltype(auto) lastSegmentConstraint() const { return engine_.lastSegmentConstraint(state_); }
  decltype(auto) segmentVelocity() const { return engine_.segmentVelocity(state_); }

 private:
  Engine engine_;
  State state_{};
  Report report_{};
};

}  // namespace nhtest
