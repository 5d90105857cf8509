#pragma once
// Simulation bookkeeping shared by the nonholonomic systems: step count, time grid, impact
// records and failure messages around an integrator ("engine") with this interface:
//   RunStatus step();                       one step of length h, state unchanged on failure
//   const LdapStepReport<Vec>& lastStep();  impacts of the last step / what failed
//   const Model& model(); const Vec& q(); const Vec& p();   node state
//   double energy();                        node energy H(q_k, p_k), J
// (LdapVci, ReducedDiskVci and Dla002 all provide it).

#include "core/model/system.hpp"
#include "core/nonholonomic/ldap_vci.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ricochet::nonholonomic {

/// What failed, "WHAT [on gap 'G'] at alpha = S (value V)" (failureText() adds the step and time).
inline std::string failureMessage(const LdapFailure& f, const char* gapName) {
  char buf[160];
  std::string msg = (f.what && *f.what) ? f.what : "the step failed";
  if (gapName) msg += std::string(" on gap '") + gapName + "'";
  std::snprintf(buf, sizeof buf, " at alpha = %.6g (value %.6g)", f.s, f.value);
  msg += buf;
  return msg;
}

template <class Engine>
class EngineSimulation : public Simulation {
 public:
  using Model = typename std::remove_cvref_t<decltype(std::declval<const Engine&>().model())>;
  using Vec = typename Model::Vec;

  /// `t0`: time of node 0 (s).
  EngineSimulation(Engine engine, double h, double t0, std::vector<std::string> columns)
      : engine_(std::move(engine)), h_(h), t0_(t0), columns_(std::move(columns)) {}

  std::int64_t step() const override { return step_; }
  double time() const override { return t0_ + static_cast<double>(step_) * h_; }
  std::int64_t impactCount() const override { return impacts_; }
  double timeStep() const override { return h_; }
  std::span<const std::string> columns() const override { return columns_; }

  AdvanceResult advance(std::int64_t maxSteps, ImpactSink* sink) override {
    AdvanceResult res;
    for (std::int64_t i = 0; i < maxSteps; ++i) {
      const double tk = time();
      const RunStatus st = engine_.step();
      const auto& rep = engine_.lastStep();
      if (st != RunStatus::Ok) {
        res.status = st;
        const LdapFailure& f = rep.failure;
        res.message = failureMessage(
            f, f.gap >= 0 && f.gap < Model::kGaps ? Model::gapName(f.gap) : nullptr);
        return res;
      }
      ++step_;
      ++res.stepsTaken;
      for (int k = 0; k < rep.impactCount; ++k) {
        ++impacts_;
        if (sink) sink->onImpact(toRecord(rep.impacts[k], tk));
      }
    }
    return res;
  }

  EnergySplit energy() const override {
    const double v = engine_.model().potential(engine_.q());
    return EnergySplit{engine_.energy() - v, v};
  }
  double minGap() const override { return nonholonomic::minGap(engine_.model(), engine_.q()); }

  const Engine& engine() const { return engine_; }

 protected:
  ImpactRecord toRecord(const LdapImpact<Vec>& im, double tk) const {
    ImpactRecord r;
    r.step = step_;
    r.t = tk + im.s * h_;
    r.alpha = im.s;
    r.constraint = im.gap;
    r.energyBefore = nodeEnergy(engine_.model(), im.q, im.pMinus);
    r.energyAfter = nodeEnergy(engine_.model(), im.q, im.pPlus);
    r.impulse = im.mu;
    r.reflected = im.reflectionFallback;
    r.contactPoint = engine_.model().contactPoint(im.gap, im.q);
    return r;
  }

  Engine engine_;
  double h_;
  double t0_;
  std::vector<std::string> columns_;
  std::int64_t step_ = 0;
  std::int64_t impacts_ = 0;
};

}  // namespace ricochet::nonholonomic
