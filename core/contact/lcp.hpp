#pragma once
// A small linear complementarity problem with a symmetric positive semidefinite matrix:
// find x >= 0 with w = M x + q >= 0 and x.w = 0, i.e. the minimum of x^T M x / 2 + q^T x over
// x >= 0. Solved exactly (to round-off) by the active-set method of Lawson and Hanson: grow the
// set of positive unknowns by the most violated row, solve the equality problem on it
// (Cholesky), step back along the segment to keep x >= 0. A row that depends on the positive
// ones (redundant contacts: four corners of a face on a plane) is left at 0; w is then 0 there
// too, so the solution is still complementary and M x is unique even when x is not.
//
// Used for the impulses of a pass of generalized reflections (reflections.cpp) and for the
// multipliers of held contacts (core/bodies/held.cpp). Allocation-free once reserved.

#include <vector>

namespace ricochet::contact {

class LcpSolver {
 public:
  /// Capacity for n unknowns (grows when a problem is larger).
  void reserve(int n);
  int capacity() const { return cap_; }
  /// Row-major storage of M, stride capacity(): set M(i, j) for i, j < n before solve().
  double& M(int i, int j) { return m_[std::size_t(i * cap_ + j)]; }
  double& q(int i) { return q_[std::size_t(i)]; }
  double x(int i) const { return x_[std::size_t(i)]; }
  double w(int i) const { return w_[std::size_t(i)]; }
  /// Solves for the first n unknowns; wTolerance: a row counts as violated below -wTolerance.
  void solve(int n, double wTolerance);

 private:
  bool cholesky(int np);
  void choleskySolve(int np);
  int cap_ = 0;
  std::vector<double> m_, l_, q_, x_, w_, z_;
  std::vector<int> passive_;
};

}  // namespace ricochet::contact
