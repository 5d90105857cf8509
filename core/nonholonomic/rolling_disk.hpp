#pragma once
// Vertical rolling disk with unilateral walls (P001 §6, P002 §5; docs/nonholonomic-vci.md,
// "Rolling disk: the model").
//
// q = (x, y, theta, phi): (x, y) contact point on the floor (= horizontal position of the centre),
// theta the rolling angle, phi the heading (angle of the disk plane with the x axis). Unwrapped.
//   L = 1/2 m (xdot^2 + ydot^2) + 1/2 I thetadot^2 + 1/2 J phidot^2 (no potential),
//   rolling without slipping: xdot = R thetadot cos phi, ydot = R thetadot sin phi:
//   W = [[1, 0, -R cos phi, 0], [0, 1, -R sin phi, 0]], X = [X1, X2],
//   X1 = d_theta + R cos phi d_x + R sin phi d_y, X2 = d_phi; reduced velocity z = (u, w) =
//   (thetadot, phidot), G = X^T M X = diag(A, B), A = m R^2 + I, B = J; E = 1/2 (A u^2 + B w^2).
// Obstacles (gaps >= 0, two smooth gaps each):
//   Wall y = yw (P001's wall stops only the front edge; the back edge is added):
//        "wall-front" yw - y - R sin phi, "wall-back" yw - y + R sin phi.
//   Table of radius a centred at the origin (P002 C+-): "rim+" a^2 - |(x, y) + R (cos, sin)|^2,
//        "rim-" a^2 - |(x, y) - R (cos, sin)|^2.
// Discretisation: midpoint constraint (P002 §5): x1 - x0 = R cos((phi0+phi1)/2)(theta1 - theta0),
// same for y with sin; L_d = (1/2 tau) dq^T M dq (all quadratures coincide without potential).

#include "core/impact/crossing.hpp"
#include "core/impact/restitution.hpp"
#include "core/impact/settled_advance.hpp"
#include "core/model/system.hpp"
#include "core/nonholonomic/ldap_vci.hpp"

#include <Eigen/Core>
#include <Eigen/LU>

#include <algorithm>
#include <array>
#include <cmath>

namespace ricochet::nonholonomic {

enum class DiskObstacle { Wall, Table };

template <DiskObstacle kObstacle>
struct RollingDiskModel : LdapTypes<4, 2> {
  static constexpr int kGaps = 2;
  static constexpr DiskObstacle obstacle = kObstacle;
  double m = 1.0;    ///< kg
  double R = 1.0;    ///< m, disk radius
  double I = 0.5;    ///< kg m^2, moment of inertia about the axle
  double J = 0.25;   ///< kg m^2, moment of inertia about a vertical diameter
  double yw = 10.0;  ///< m, wall position (Wall)
  double a = 5.0;    ///< m, table radius (Table)
  double lengthScale = 1.0;  ///< m

  double A() const { return m * R * R + I; }
  double B() const { return J; }

  Mat massMatrix(const Vec&) const { return Vec(m, m, I, J).asDiagonal(); }
  Vec kineticGradient(const Vec&, const Vec&) const { return Vec::Zero(); }
  Mat kineticHessianQQ(const Vec&, const Vec&) const { return Mat::Zero(); }
  Mat kineticHessianQV(const Vec&, const Vec&) const { return Mat::Zero(); }
  double potential(const Vec&) const { return 0.0; }
  Vec potentialGradient(const Vec&) const { return Vec::Zero(); }
  Mat potentialHessian(const Vec&) const { return Mat::Zero(); }
  WMat constraintMatrix(const Vec& q) const {
    WMat W;
    W << 1.0, 0.0, -R * std::cos(q[3]), 0.0, 0.0, 1.0, -R * std::sin(q[3]), 0.0;
    return W;
  }
  WMat constraintDerivative(const Vec& q, const Vec& v) const {
    WMat D = WMat::Zero();
    D(0, 3) = R * std::sin(q[3]) * v[2];
    D(1, 3) = -R * std::cos(q[3]) * v[2];
    return D;
  }
  XMat distributionBasis(const Vec& q) const {
    XMat X = XMat::Zero();
    X(0, 0) = R * std::cos(q[3]);
    X(1, 0) = R * std::sin(q[3]);
    X(2, 0) = 1.0;
    X(3, 1) = 1.0;
    return X;
  }

  /// +1 for the front edge / rim+ (gap 0), -1 for the back edge / rim- (gap 1).
  static double side(int j) { return j == 0 ? 1.0 : -1.0; }
  /// The disk's extreme point on side j (front/back edge, footprint point P+-), world, at the
  /// height of the centre.
  Eigen::Vector3d contactPoint(int j, const Vec& q) const {
    const double sg = side(j);
    return {q[0] + sg * R * std::cos(q[3]), q[1] + sg * R * std::sin(q[3]), R};
  }
  double gap(int j, const Vec& q) const {
    const double sg = side(j), c = std::cos(q[3]), s = std::sin(q[3]);
    if constexpr (kObstacle == DiskObstacle::Wall) return yw - q[1] - sg * R * s;
    const double px = q[0] + sg * R * c, py = q[1] + sg * R * s;
    return a * a - px * px - py * py;
  }
  Vec gapGradient(int j, const Vec& q) const {
    const double sg = side(j), c = std::cos(q[3]), s = std::sin(q[3]);
    if constexpr (kObstacle == DiskObstacle::Wall) return Vec(0.0, -1.0, 0.0, -sg * R * c);
    const double px = q[0] + sg * R * c, py = q[1] + sg * R * s;
    return Vec(-2.0 * px, -2.0 * py, 0.0, -2.0 * sg * R * (py * c - px * s));
  }
  static const char* gapName(int j) {
    if constexpr (kObstacle == DiskObstacle::Wall) return j == 0 ? "wall-front" : "wall-back";
    return j == 0 ? "rim+" : "rim-";
  }
  static const char* coordinateName(int i) {
    static constexpr const char* names[4] = {"x", "y", "theta", "phi"};
    return names[i];
  }

  /// Boundary maps for the map-based readings of (I8). Wall (P001 §6): T dQ =
  /// span{d_x, d_theta, d_phi -+ R cos phi d_y} (front/back edge); table: {d_theta, g_y d_x -
  /// g_x d_y, g_phi d_x - g_x d_phi} (x and y exchanged when |g_x| < |g_y|).
  Eigen::Matrix<double, 4, 3> boundaryTangentBasis(int j, const Vec& q) const {
    Eigen::Matrix<double, 4, 3> B = Eigen::Matrix<double, 4, 3>::Zero();
    if constexpr (kObstacle == DiskObstacle::Wall) {
      B(0, 0) = 1.0;
      B(2, 1) = 1.0;
      B(1, 2) = -side(j) * R * std::cos(q[3]);
      B(3, 2) = 1.0;
    } else {
      const Vec g = gapGradient(j, q);
      B(2, 0) = 1.0;
      if (std::fabs(g[0]) >= std::fabs(g[1])) {
        B(0, 1) = g[1];
        B(1, 1) = -g[0];
        B(0, 2) = g[3];
        B(3, 2) = -g[0];
      } else {
        B(1, 1) = g[0];
        B(0, 1) = -g[1];
        B(1, 2) = g[3];
        B(3, 2) = -g[1];
      }
    }
    return B;
  }
  /// pi_S with Pi B = I: variant 0 = P001's (wall: drop v_y; table: Euclidean projection),
  /// variant 1 = the M-orthogonal projection (B^T M B)^-1 B^T M.
  Eigen::Matrix<double, 3, 4> boundaryProjection(int j, const Vec& q, int variant) const {
    const Eigen::Matrix<double, 4, 3> B = boundaryTangentBasis(j, q);
    if (variant == 1) {
      const Mat M = massMatrix(q);
      return (B.transpose() * M * B).partialPivLu().solve(B.transpose() * M);
    }
    if constexpr (kObstacle == DiskObstacle::Wall) {
      Eigen::Matrix<double, 3, 4> P = Eigen::Matrix<double, 3, 4>::Zero();
      P(0, 0) = 1.0;
      P(1, 2) = 1.0;
      P(2, 3) = 1.0;
      return P;
    }
    return (B.transpose() * B).partialPivLu().solve(B.transpose());
  }

  /// Chord velocity of a midpoint segment of length tau from heading phi with reduced velocity
  /// (u, w): (R cos(phi + tau w/2) u, R sin(phi + tau w/2) u, u, w).
  Vec chordVelocity(double phi, double u, double w, double tau) const {
    const double phiBar = phi + 0.5 * tau * w;
    return Vec(R * std::cos(phiBar) * u, R * std::sin(phiBar) * u, u, w);
  }

  /// Closed-form regular step for the midpoint constraint: w = p_phi/J,
  /// u = (p_theta + R (p_x cos phi + p_y sin phi)) / (I + m R^2 cos(tau w/2)); the multipliers
  /// are the x, y components of p - M w.
  ClosedForm regularClosedForm(Discretisation d, double tau, const Vec& q, const Vec& p, Vec& w,
                               ConVec& lambda) const {
    if (d != Discretisation::Midpoint) return ClosedForm::NotAvailable;
    const double wphi = p[3] / J;
    const double den = I + m * R * R * std::cos(0.5 * tau * wphi);
    if (!(den > 0.0)) return ClosedForm::Failed;  // |tau w| near 2 pi with I << m R^2
    const double u = (p[2] + R * (p[0] * std::cos(q[3]) + p[1] * std::sin(q[3]))) / den;
    w = chordVelocity(q[3], u, wphi, tau);
    lambda = ConVec(p[0] - m * w[0], p[1] - m * w[1]);
    return ClosedForm::Solved;
  }

  /// Initial momentum at node q(0): p0 = M (R cos(phi0 - h w0/2) u0,
  /// R sin(phi0 - h w0/2) u0, u0, w0), the momentum of the midpoint chord ending at q(0); with it
  /// the regular steps keep (u, w) = (u0, w0) exactly.
  Vec initialMomentum(const Vec& q0, double u0, double w0, double h) const {
    return massMatrix(q0) * chordVelocity(q0[3] - h * w0, u0, w0, h);
  }
  /// The node before q(0) on that chord (P002's two initial points are (it, q(0))).
  Vec previousNode(const Vec& q0, double u0, double w0, double h) const {
    return q0 - h * chordVelocity(q0[3] - h * w0, u0, w0, h);
  }

  /// Node energy 1/2 p^T M^-1 p (M constant). With the discrete momentum p = M w of
  /// the last chord it is 1/2 (A u^2 + B w^2) of that chord, the quantity the smooth steps keep.
  double nodeEnergy(const Vec&, const Vec& p) const {
    return 0.5 * (p[0] * p[0] / m + p[1] * p[1] / m + p[2] * p[2] / I + p[3] * p[3] / J);
  }

  /// Continuous momentum M X(q) z of the reduced velocity z = (u, w) at q.
  Vec momentum(const Vec& q, double u, double w) const {
    return Vec(m * R * std::cos(q[3]) * u, m * R * std::sin(q[3]) * u, I * u, J * w);
  }
};

using DiskWallModel = RollingDiskModel<DiskObstacle::Wall>;
using DiskTableModel = RollingDiskModel<DiskObstacle::Table>;
static_assert(LdapModel<DiskWallModel> && LdapModel<DiskTableModel>);

/// Reduced (Chaplygin) collision integrator for the rolling disk (this project's proposal, not in
/// the papers; docs/nonholonomic-vci.md, "The reduced (Chaplygin) integrator"): the reduced
/// velocity z = (u, w) is constant in flight (no potential, so FMOW on the reduced Lagrangian
/// 1/2 (A u^2 + B w^2) is exact), the configuration is reconstructed with the midpoint chord
/// q + tau (R cos(phi + tau w/2) u, R sin(..) u, u, w) (it satisfies the discrete constraint of
/// P002), the impact time alpha is the bracketed root of the gap along the reconstructed
/// sub-step, and the jump is the reduced reflection (C2) with nu = X(q~)^T n_j(q~).
/// Energy 1/2 z^T G z is conserved to round-off for all time. Allocation-free.
///
/// Restitution e < 1 (docs/restitution.md): the jump is (C2) with Newton's e; a contact whose
/// rebound would land within one step settles and is held (impact::advanceHeld): the centre of the
/// disk's footprint end stays on the boundary while its force pushes. The held step is the
/// reconstruction with the held gaps' multipliers in the reduced velocity (RATTLE-type: z_1/2 =
/// z + (tau/2) G^-1 N kappa, q_1 = the chord of z_1/2, g_S(q_1) = 0), then z projected on the held
/// gaps' tangent and rescaled to the step's energy: without potential the energy is constant, and
/// one held gap leaves a line of admissible reduced velocities, so the scheme keeps its energy to
/// round-off in settled motion too.
template <class DiskModel>
class ReducedDiskVci {
 public:
  using Model = DiskModel;
  using Vec = typename Model::Vec;
  using RVec = typename Model::RVec;
  using ConVec = typename Model::ConVec;
  using GapVec = Eigen::Vector2d;
  using Point = impact::PhasePoint<Vec>;
  using Impact = impact::Impact<Point, LdapImpactDetail>;
  using Report = impact::StepReport<Impact>;

  /// The state of one run: configuration, reduced velocity z = (u, w), the length of the last
  /// (sub-)segment and the continuous momentum M X(q) z at the node.
  struct State {
    Vec q = Vec::Zero();
    RVec z = RVec::Zero();
    double lastTau = 0.0;
    Vec p = Vec::Zero();
    unsigned held = 0;              ///< settled contacts (restitution < 1 only)
    GapVec force = GapVec::Zero();  ///< their forces at the last step (Newton guess)
  };

  ReducedDiskVci(const Model& model, double h, const LdapOptions& options = {})
      : model_(model), h_(h), options_(options) {
    options_.maxImpactsPerStep =
        std::clamp(options_.maxImpactsPerStep, 1, impact::kMaxImpactsPerStep);
    options_.subsamples = std::max(options_.subsamples, 1);
  }

  State initialState(const Vec& q, double u, double w) const {
    State s;
    s.q = q;
    s.z = RVec(u, w);
    s.lastTau = 0.0;
    s.p = model_.momentum(q, u, w);
    return s;
  }
  const Model& model() const { return model_; }
  double timeStep() const { return h_; }

  // ---- what a state shows (trace columns) ------------------------------------------------
  const Vec& q(const State& s) const { return s.q; }
  /// Continuous momentum M X(q) z at the node.
  const Vec& p(const State& s) const { return s.p; }
  const RVec& reducedVelocity(const State& s) const { return s.z; }
  /// 1/2 (A u^2 + B w^2), J.
  double energy(const State& s) const {
    return 0.5 * (model_.A() * s.z[0] * s.z[0] + model_.B() * s.z[1] * s.z[1]);
  }
  double lastSegmentTau(const State& s) const { return s.lastTau; }
  /// Chord velocity of the last (sub-)segment.
  Vec segmentVelocity(const State& s) const {
    return model_.chordVelocity(s.q[3] - s.lastTau * s.z[1], s.z[0], s.z[1], s.lastTau);
  }
  double lastSegmentEnergy(const State& s) const { return energy(s); }
  /// Midpoint discrete constraint W(psi) w of the last segment (zero by construction).
  ConVec lastSegmentConstraint(const State& s) const {
    const Vec w = segmentVelocity(s);
    const Vec psi = s.q - (0.5 * s.lastTau) * w;
    return model_.constraintMatrix(psi) * w;
  }

  // ---- what StepperSimulation needs ------------------------------------------------------
  double impactEnergy(const Point& x) const { return nodeEnergy(model_, x.q, x.p); }
  Eigen::Vector3d contactPoint(const Impact& i) const {
    return model_.contactPoint(i.gap, i.before.q);
  }
  const char* gapName(int j) const { return Model::gapName(j); }

  /// Reconstructed configuration after time tau from q with reduced velocity z.
  Vec advanceConfiguration(const Vec& q, const RVec& z, double tau) const {
    return q + tau * model_.chordVelocity(q[3], z[0], z[1], tau);
  }
  /// The reflection (C2) at q on gap j, with Newton's restitution; false if nu = 0 (no
  /// admissible impulse).
  bool reflect(int j, const Vec& q, const RVec& zMinus, RVec& zPlus) const {
    const typename Model::XMat X = model_.distributionBasis(q);
    const RVec nu = X.transpose() * model_.gapGradient(j, q);
    const typename Model::RMat G = RVec(model_.A(), model_.B()).asDiagonal();
    return reducedReflection(G, nu, zMinus, zPlus, 0.0, options_.restitution);
  }
  /// A contact is held (restitution < 1 only).
  bool settled(const State& s) const { return s.held != 0; }

  RunStatus step(State& state, Report& report) const {
    report.clear();
    if (state.held) [[unlikely]]
      return advanceHeld(state, report, 0.0, state.q, state.z, state.held);
    Vec q = state.q;
    RVec z = state.z;
    double elapsed = 0.0;  // fraction of h done
    for (;;) {
      const double tau = (1.0 - elapsed) * h_;
      const impact::Crossing x = findCrossing(q, z, tau);
      if (x.failed) {
        return failStep(report, RunStatus::SolverFailed, "the impact time (root of the gap along "
                        "the reconstructed path) did not converge", x.gap, elapsed);
      }
      const double s = x.s;
      const int j = x.gap;
      const bool immediate = x.immediate;
      if (!x.found) {
        const Vec qEnd = advanceConfiguration(q, z, tau);
        if (!qEnd.allFinite()) {
          return failStep(report, RunStatus::NonFinite, "the state became non-finite", -1, 1.0);
        }
        state.q = qEnd;
        state.z = z;
        state.p = model_.momentum(qEnd, z[0], z[1]);
        state.lastTau = tau;
        return RunStatus::Ok;
      }
      if (report.impactCount >= options_.maxImpactsPerStep) {
        return failStep(report, RunStatus::Zeno, kZenoText, j, elapsed, "cap",
                        report.impactCount);
      }
      const Vec qi = immediate ? q : advanceConfiguration(q, z, s * tau);
      const typename Model::XMat X = model_.distributionBasis(qi);
      const RVec nu = X.transpose() * model_.gapGradient(j, qi);
      if (!(nu.norm() > 1e-12 * X.norm() * model_.gapGradient(j, qi).norm())) {
        return failStep(report, RunStatus::SolverFailed, "nu = X^T n = 0: the velocity "
                        "constraints are tangent to the boundary, no admissible impulse", j,
                        elapsed, "|nu|", nu.norm());
      }
      if (!(nu.dot(z) < 0.0) && !(options_.restitution < 1.0)) {
        return failStep(report, RunStatus::SolverFailed, "grazing impact: the reduced velocity "
                        "does not approach the boundary", j, elapsed + s * (1.0 - elapsed),
                        "normal rate nu^T z", nu.dot(z));
      }
      RVec zPlus = z;  // a contact that does not approach gets no impulse (restitution < 1)
      if (nu.dot(z) < 0.0 && !reflect(j, qi, z, zPlus)) {
        return failStep(report, RunStatus::SolverFailed, "nu = X^T n = 0: the velocity "
                        "constraints are tangent to the boundary, no admissible impulse", j,
                        elapsed, "|nu|", nu.norm());
      }
      elapsed += s * (1.0 - elapsed);
      Impact& r = report.add();
      r.s = elapsed;
      r.gap = j;
      r.before = Point{qi, model_.momentum(qi, z[0], z[1])};
      r.after = Point{qi, model_.momentum(qi, zPlus[0], zPlus[1])};
      const RVec G(model_.A(), model_.B());
      // Impulse on n_j: G (z+ - z-) = mu nu (C2).
      r.impulse = (G.cwiseProduct(zPlus - z)).dot(nu) / nu.squaredNorm();
      r.detail.eMinus = 0.5 * z.dot(G.cwiseProduct(z));
      r.energyResidual = 0.5 * zPlus.dot(G.cwiseProduct(zPlus)) - r.detail.eMinus;
      r.reflected = false;
      r.jointFallback = false;
      if (options_.restitution < 1.0) {
        report.dissipated += r.detail.eMinus - 0.5 * zPlus.dot(G.cwiseProduct(zPlus));
        if (settles(j, 0, Node{qi, zPlus})) {  // bounces below the step's resolution
          const Node held = projectHeld(1u << j, Node{qi, zPlus});
          report.dissipated += energyOf(Node{qi, zPlus}) - energyOf(held);
          report.settledAt = elapsed;
          State next = state;
          const RunStatus st = advanceHeld(next, report, elapsed, held.q, held.z, 1u << j);
          if (st == RunStatus::Ok) state = next;
          return st;
        }
      }
      q = qi;
      z = zPlus;
    }
  }

  // ---- impact::HeldMotion (settled contacts, restitution < 1) ---------------------------------
  struct Node {
    Vec q = Vec::Zero();
    RVec z = RVec::Zero();
  };
  /// A held step: the held gaps' forces (Newton unknowns) and the end node.
  struct Segment {
    GapVec force = GapVec::Zero();
    Node end;
    bool ok = false;
  };
  static constexpr int kGaps = 2;

  RVec nu(int j, const Vec& q) const {
    return model_.distributionBasis(q).transpose() * model_.gapGradient(j, q);
  }
  RVec Ginv(const RVec& v) const { return RVec(v[0] / model_.A(), v[1] / model_.B()); }

  /// The held step of length tau from x (see the class comment); seg.force: guess in, out.
  bool solveHeld(double tau, const Node& x, unsigned held, Segment& seg) const {
    int idx[kGaps];
    int k = 0;
    for (int j = 0; j < kGaps; ++j) {
      if (held & (1u << j)) idx[k++] = j;
    }
    seg.ok = false;
    RVec zHalf = x.z;
    Vec q1 = advanceConfiguration(x.q, x.z, tau);
    if (k > 0 && tau > 1e-9 * h_) {
      impact::ContactVector kappa(k);
      RVec dir[kGaps];  // (tau/2) G^-1 nu_i(q): d z_1/2 / d kappa_i
      for (int r = 0; r < k; ++r) {
        kappa[r] = seg.force[idx[r]];
        dir[r] = (0.5 * tau) * Ginv(nu(idx[r], x.q));
      }
      bool converged = false;
      for (int it = 0; it < options_.maxIterations; ++it) {
        zHalf = x.z;
        for (int r = 0; r < k; ++r) zHalf += kappa[r] * dir[r];
        q1 = advanceConfiguration(x.q, zHalf, tau);
        impact::ContactVector F(k);
        double floor = 0.0, worst = 0.0;
        for (int r = 0; r < k; ++r) {
          F[r] = model_.gap(idx[r], q1);
          floor = std::max(floor, impact::gapRoundoff(model_, idx[r], q1));
          worst = std::max(worst, std::fabs(F[r]));
        }
        if (worst <= options_.tolerance * model_.lengthScale + floor) {
          converged = true;
          break;
        }
        // d q_1 / d z: the chord q + tau (R cos c u, R sin c u, u, w), c = phi + tau w / 2.
        const double c = x.q[3] + 0.5 * tau * zHalf[1], R = model_.R;
        const Vec du(tau * R * std::cos(c), tau * R * std::sin(c), tau, 0.0);
        const Vec dw(-0.5 * tau * tau * R * std::sin(c) * zHalf[0],
                     0.5 * tau * tau * R * std::cos(c) * zHalf[0], 0.0, tau);
        impact::ContactMatrix J(k, k);
        for (int r = 0; r < k; ++r) {
          const Vec n = model_.gapGradient(idx[r], q1);
          for (int col = 0; col < k; ++col) {
            J(r, col) = n.dot(du) * dir[col][0] + n.dot(dw) * dir[col][1];
          }
        }
        const impact::ContactVector step = J.partialPivLu().solve(-F);
        if (!step.allFinite()) return false;
        kappa += step;
      }
      if (!converged) return false;
      for (int r = 0; r < k; ++r) seg.force[idx[r]] = kappa[r];
    }
    for (int j = 0; j < kGaps; ++j) {
      if (!(held & (1u << j))) seg.force[j] = 0.0;
    }
    seg.end = projectHeld(held, Node{q1, zHalf});
    if (k > 0) {  // back to the step's energy (see the class comment)
      const double e0 = energyOf(x), e1 = energyOf(seg.end);
      if (e1 > 0.0) seg.end.z *= std::sqrt(e0 / e1);
    }
    seg.ok = seg.end.q.allFinite() && seg.end.z.allFinite();
    return seg.ok;
  }
  static double heldForce(const Segment& seg, int j) { return seg.force[j]; }
  static Node heldEnd(double, const Node&, const Segment& seg, unsigned) { return seg.end; }
  double gap(int j, const Node& x) const { return model_.gap(j, x.q); }
  double gapRate(int j, const Node& x) const { return nu(j, x.q).dot(x.z); }
  double gapRoundoff(int j, const Node& x) const { return impact::gapRoundoff(model_, j, x.q); }
  void heldCurvature(const Node& x, unsigned held, double tau, const Segment&,
                     GapVec& kappa) const {
    if (held == 0) {
      kappa = Path{this, x.q, x.z, tau}.curvatureBounds();
    } else {
      kappa.setConstant(std::numeric_limits<double>::infinity());
    }
  }
  /// Newton's law at gap j with the held gaps closed (impact::simultaneousImpulses).
  bool heldJump(int j, unsigned held, const Node& x, Node& y, double& impulse) const {
    int idx[kGaps + 1];
    idx[0] = j;
    int k = 1;
    for (int i = 0; i < kGaps; ++i) {
      if (i != j && (held & (1u << i))) idx[k++] = i;
    }
    impact::ContactMatrix K(k, k);
    impact::ContactVector u(k), e(k), P;
    RVec n[kGaps + 1];
    for (int r = 0; r < k; ++r) n[r] = nu(idx[r], x.q);
    double scale = 0.0;
    for (int r = 0; r < k; ++r) {
      u[r] = n[r].dot(x.z);
      e[r] = r == 0 ? options_.restitution : 0.0;
      scale = std::max(scale, std::fabs(u[r]));
      for (int c = 0; c < k; ++c) K(r, c) = n[r].dot(Ginv(n[c]));
    }
    if (!impact::simultaneousImpulses(K, u, e, 1e-13 * scale, P)) return false;
    y = x;
    for (int r = 0; r < k; ++r) y.z += P[r] * Ginv(n[r]);
    impulse = P[0];
    return true;
  }
  double energyOf(const Node& x) const {
    return 0.5 * (model_.A() * x.z[0] * x.z[0] + model_.B() * x.z[1] * x.z[1]);
  }
  /// The settling rule with the normal acceleration over one step of this scheme's flow:
  /// a_n = 2 (u+ h - g_j(q_h)) / h^2.
  bool settles(int j, unsigned held, const Node& x) const {
    if (!(options_.restitution < 1.0)) return false;
    const double rate = std::max(gapRate(j, x), 0.0);
    Segment seg;
    if (!solveHeld(h_, x, held, seg)) return false;
    const double an = 2.0 * (rate * h_ - model_.gap(j, seg.end.q)) / (h_ * h_);
    return impact::bounceBelowResolution(rate, an, h_);
  }
  /// z with the normal rates of the held gaps set to zero (G-orthogonal projection, e = 0).
  Node projectHeld(unsigned held, const Node& x) const {
    int idx[kGaps];
    int k = 0;
    for (int j = 0; j < kGaps; ++j) {
      if (held & (1u << j)) idx[k++] = j;
    }
    if (k == 0) return x;
    impact::ContactMatrix K(k, k);
    impact::ContactVector u(k);
    RVec n[kGaps];
    for (int r = 0; r < k; ++r) n[r] = nu(idx[r], x.q);
    for (int r = 0; r < k; ++r) {
      u[r] = n[r].dot(x.z);
      for (int c = 0; c < k; ++c) K(r, c) = n[r].dot(Ginv(n[c]));
    }
    const impact::ContactVector mu = K.partialPivLu().solve(-u);
    Node out = x;
    for (int r = 0; r < k; ++r) out.z += mu[r] * Ginv(n[r]);
    return out;
  }

  /// Advances `state` from the fraction `elapsed` of the step (impact::advanceHeld). On failure
  /// the state is not modified.
  RunStatus advanceHeld(State& state, Report& report, double elapsed, const Vec& q, const RVec& z,
                        unsigned held) const {
    Segment guess;
    guess.force = state.force;
    impact::DetectionOptions detection;
    detection.subsamples = options_.subsamples;
    detection.tolerance = options_.tolerance;
    impact::HeldEnd<ReducedDiskVci> end;
    const RunStatus st = impact::advanceHeld(
        *this, elapsed, Node{q, z}, held, guess, detection, options_.maxImpactsPerStep, report,
        [this](Report& r, int j, double s, const Node& before, const Node& after, double mu) {
          Impact& i = r.add();
          i.s = s;
          i.gap = j;
          i.before = Point{before.q, model_.momentum(before.q, before.z[0], before.z[1])};
          i.after = Point{after.q, model_.momentum(after.q, after.z[0], after.z[1])};
          i.impulse = mu;
          i.detail.eMinus = energyOf(before);
          i.energyResidual = 0.0;
          i.reflected = false;
          i.jointFallback = false;
        },
        end);
    if (st != RunStatus::Ok) return st;
    state.q = end.node.q;
    state.z = end.node.z;
    state.p = model_.momentum(state.q, state.z[0], state.z[1]);
    state.lastTau = end.lastTau;
    state.held = end.held;
    state.force = end.segment.force;
    return RunStatus::Ok;
  }

 private:
 public:
  /// The reconstructed sub-step s -> q(s) = q0 + s tau chord(phi0, u, w, s tau) of length tau
  /// from (q0, z), as the shared crossing detector sees it (impact::CrossingPath).
  struct Path {
    static constexpr int kGaps = 2;
    using GapVec = Eigen::Vector2d;
    const ReducedDiskVci* vci;
    Vec q0;
    RVec z;
    double tau;
    Vec position(double s) const { return vci->advanceConfiguration(q0, z, s * tau); }
    void gaps(double s, GapVec& out) const {
      const Vec q = position(s);
      out = GapVec(vci->model_.gap(0, q), vci->model_.gap(1, q));
    }
    double gap(int j, double s) const { return vci->model_.gap(j, position(s)); }
    /// dG_j/ds = n_j . dq/ds; with c = phi0 + s tau w/2: dx/ds = tau R u (cos c - (s tau w/2)
    /// sin c), dy/ds = tau R u (sin c + (s tau w/2) cos c), dtheta/ds = tau u, dphi/ds = tau w.
    double gapRate(int j, double s) const {
      const double R = vci->model_.R, u = z[0], w = z[1];
      const double half = 0.5 * s * tau * w, c = q0[3] + half;
      const Vec dq(tau * R * u * (std::cos(c) - half * std::sin(c)),
                   tau * R * u * (std::sin(c) + half * std::cos(c)), tau * u, tau * w);
      return vci->model_.gapGradient(j, position(s)).dot(dq);
    }
    double gapRoundoff(int j, double s) const {
      return impact::gapRoundoff(vci->model_, j, position(s));
    }
    /// Upper bounds of G_j'' on [0, 1]. With a = tau w/2 and c(s) = phi0 + a s, the centre moves
    /// by s tau R u (cos c, sin c), so |(x'', y'')| <= tau R |u| (2|a| + a^2), and the heading
    /// turns at tau w, so the footprint ends' offset R (cos phi, sin phi) has second derivative
    /// R (tau w)^2. Wall: G = yw - y - sg R sin(phi). Table: G = a^2 - |P|^2 with P the footprint
    /// end, G'' = -2 (|P'|^2 + P.P'') <= 2 |P| |P''|, |P| <= |P(0)| + max |P'|.
    GapVec curvatureBounds() const {
      const auto& model = vci->model_;
      const double R = model.R, u = std::fabs(z[0]), turn = std::fabs(tau * z[1]);
      const double a = 0.5 * turn;
      const double centre2 = tau * R * u * (2.0 * a + a * a);  // |(x'', y'')|
      const double offset2 = R * turn * turn;                   // |d^2/ds^2 R (cos, sin)(phi)|
      if constexpr (Model::obstacle == DiskObstacle::Wall) {
        return GapVec::Constant(centre2 + offset2);
      } else {
        GapVec k;
        const double reach = tau * R * u * (1.0 + a) + R * turn;  // max |P'|
        for (int j = 0; j < 2; ++j) {
          const double sg = Model::side(j);
          const double p0 = std::hypot(q0[0] + sg * R * std::cos(q0[3]),
                                       q0[1] + sg * R * std::sin(q0[3]));
          k[j] = 2.0 * (p0 + reach) * (centre2 + offset2);
        }
        return k;
      }
    }
  };

  /// Earliest crossing along the reconstructed sub-step of length tau from (q, z), by the shared
  /// detector (core/impact/crossing.hpp); no crossing when the remainder is below 1e-12 h.
  impact::Crossing findCrossing(const Vec& q, const RVec& z, double tau) const {
    if (!(tau > 1e-12 * h_)) return {};
    const Path path{this, q, z, tau};
    GapVec g0, g1;
    path.gaps(0.0, g0);
    path.gaps(1.0, g1);
    impact::DetectionOptions detection;
    detection.subsamples = options_.subsamples;
    detection.tolerance = options_.tolerance;
    const GapVec kappa = path.curvatureBounds();
    if (impact::clearOfContact(g0, g1, kappa)) return {};
    return impact::firstCrossing(path, g0, g1, kappa, detection);
  }

 private:

  Model model_;
  double h_;
  LdapOptions options_;
};

/// Registry entries "disk-wall" (P001 §6) and "disk-table" (P002 §5); integrators "variational"
/// (LDAP VCI, midpoint constraint), "reduced" (ReducedDiskVci) and "dla-002" (P002's
/// scheme as printed, dla002.hpp).
const SystemDescription& diskWallSystem();
const SystemDescription& diskTableSystem();

}  // namespace ricochet::nonholonomic
