#include "core/contact/lcp.hpp"

#include <algorithm>
#include <cmath>

namespace ricochet::contact {

void LcpSolver::reserve(int n) {
  if (n <= cap_) return;
  cap_ = std::max(n, 2 * cap_);
  const std::size_t c = std::size_t(cap_);
  m_.assign(c * c, 0.0);
  l_.assign(c * c, 0.0);
  q_.assign(c, 0.0);
  x_.assign(c, 0.0);
  w_.assign(c, 0.0);
  z_.assign(c, 0.0);
  passive_.assign(c, 0);
}

bool LcpSolver::cholesky(int np) {
  double scale = 0.0;
  for (int i = 0; i < np; ++i) scale = std::max(scale, M(passive_[std::size_t(i)], passive_[std::size_t(i)]));
  for (int i = 0; i < np; ++i) {
    for (int j = 0; j <= i; ++j) {
      double s = M(passive_[std::size_t(i)], passive_[std::size_t(j)]);
      for (int k = 0; k < j; ++k) s -= l_[std::size_t(i * cap_ + k)] * l_[std::size_t(j * cap_ + k)];
      if (i == j) {
        if (!(s > 1e-13 * scale)) return false;
        l_[std::size_t(i * cap_ + i)] = std::sqrt(s);
      } else {
        l_[std::size_t(i * cap_ + j)] = s / l_[std::size_t(j * cap_ + j)];
      }
    }
  }
  return true;
}

void LcpSolver::choleskySolve(int np) {
  for (int i = 0; i < np; ++i) {
    double s = z_[std::size_t(i)];
    for (int k = 0; k < i; ++k) s -= l_[std::size_t(i * cap_ + k)] * z_[std::size_t(k)];
    z_[std::size_t(i)] = s / l_[std::size_t(i * cap_ + i)];
  }
  for (int i = np - 1; i >= 0; --i) {
    double s = z_[std::size_t(i)];
    for (int k = i + 1; k < np; ++k) s -= l_[std::size_t(k * cap_ + i)] * z_[std::size_t(k)];
    z_[std::size_t(i)] = s / l_[std::size_t(i * cap_ + i)];
  }
}

void LcpSolver::solve(int n, double wTolerance) {
  for (int i = 0; i < n; ++i) {
    x_[std::size_t(i)] = 0.0;
    w_[std::size_t(i)] = q_[std::size_t(i)];
  }
  int np = 0;
  auto inPassive = [&](int i) {
    return std::find(passive_.begin(), passive_.begin() + np, i) != passive_.begin() + np;
  };
  int excluded = -1;  // a row found dependent on the positive ones
  for (int outer = 0; outer < 4 * n + 8; ++outer) {
    int j = -1;
    double worst = -wTolerance;
    for (int i = 0; i < n; ++i) {
      if (i == excluded || inPassive(i)) continue;
      if (w_[std::size_t(i)] < worst) {
        worst = w_[std::size_t(i)];
        j = i;
      }
    }
    if (j < 0) break;
    passive_[std::size_t(np++)] = j;
    for (int inner = 0; inner < 4 * n + 8; ++inner) {
      if (!cholesky(np)) {
        --np;
        excluded = j;
        break;
      }
      for (int i = 0; i < np; ++i) z_[std::size_t(i)] = -q_[std::size_t(passive_[std::size_t(i)])];
      choleskySolve(np);
      double step = 1.0;
      bool feasible = true;
      for (int i = 0; i < np; ++i) {
        if (z_[std::size_t(i)] <= 0.0) {
          feasible = false;
          const double xi = x_[std::size_t(passive_[std::size_t(i)])];
          step = std::min(step, xi / (xi - z_[std::size_t(i)]));
        }
      }
      if (feasible) {
        for (int i = 0; i < np; ++i) x_[std::size_t(passive_[std::size_t(i)])] = z_[std::size_t(i)];
        break;
      }
      // Move towards z until an unknown reaches 0, and release it.
      int kept = 0;
      for (int i = 0; i < np; ++i) {
        const int pi = passive_[std::size_t(i)];
        double& xi = x_[std::size_t(pi)];
        xi += step * (z_[std::size_t(i)] - xi);
        if (xi > 0.0 && !(z_[std::size_t(i)] <= 0.0 && xi <= 1e-15 * std::fabs(z_[std::size_t(i)]))) {
          passive_[std::size_t(kept++)] = pi;
        } else {
          xi = 0.0;
        }
      }
      np = kept;
      if (np == 0) break;
    }
    for (int i = 0; i < n; ++i) {
      double s = q_[std::size_t(i)];
      for (int k = 0; k < n; ++k) s += M(i, k) * x_[std::size_t(k)];
      w_[std::size_t(i)] = s;
    }
  }
}

}  // namespace ricochet::contact
