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

  /// `t0`: time of node 0 (s). `columns`: the system's own (sampleColumns); `dissipative`
  /// (restitution < 1) inserts e.dissipated after them, before the first con. column.
  EngineSimulation(Engine engine, const State& state, double t0, std::vector<std::string> columns,
                   bool dissipative = false)
      : Base(std::move(engine), state, t0),
        columns_(std::move(columns)),
        own_(columns_.size()),
        dissipatedAt_(columns_.size()) {
    if (dissipative) {
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        if (columns_[i].rfind("con.", 0) == 0) {
          dissipatedAt_ = i;
          break;
        }
      }
      columns_.insert(columns_.begin() + static_cast<std::ptrdiff_t>(dissipatedAt_),
                      "e.dissipated");
    }
  }

  std::span<const std::string> columns() const override { return columns_; }

  /// The system's own columns, then e.dissipated in its place when the run dissipates.
  void sample(std::span<double> out) const final {
    sampleColumns(out.first(own_));
    if (columns_.size() > own_) {
      for (std::size_t i = own_; i > dissipatedAt_; --i) out[i] = out[i - 1];
      out[dissipatedAt_] = this->dissipatedEnergy();
    }
  }
  /// Values of the system's own columns (those given to the constructor), in order.
  virtual void sampleColumns(std::span<double> out) const = 0;

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
  std::size_t own_;           ///< the system's own columns
  std::size_t dissipatedAt_;  ///< where e.dissipated goes (when present)
};

}  // namespace ricochet::nonholonomic
