#pragma once
// Held contacts: settling and rest (docs/restitution.md, "Settling").
//
// When bounces fall below the step's resolution (the rebound would come back within a fraction
// of a step), a contact is *held*: its gap is kept at zero as an equality constraint by a
// constrained variational step, for as long as its force pushes; it lets go when the force would
// pull. Frictionless: a held body still slides along the contact and spins about its normal.
//
// The constrained step over tau of an island of bodies joined by held contacts is RATTLE on SE(3)
// written around the LGVI's flow: impulses Lambda_k along the contacts' gradients at the start,
// the free flow F~[tau] (gravity exact, the Cayley rotation), Lambda chosen so that every held gap
// is zero at the end (a complementarity problem: Lambda >= 0, gap >= 0, Lambda gap = 0, solved by
// Newton steps with the Delassus matrix as the Jacobian), then impulses mu at the end so that no
// held contact moves into the other side (mu >= 0, normal velocity >= 0). A contact whose
// multipliers both vanish while it opens has lifted off.
//
// A contact row is one of: the support point of a smooth part (sphere, ellipsoid, rounded vertex)
// on a plane; one vertex of a polyhedron on a plane (a face resting flat holds three or four);
// the support points of a smooth pair of parts; a point of body A on the face of body B (a
// polyhedron resting on a polyhedron, one row per contact point, the face's normal fixed in B).
// This is the machinery joints will use (a row is a scalar constraint with its gradient).

#include "core/bodies/world.hpp"
#include "core/contact/lcp.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace ricochet::bodies {

enum class RowKind : std::uint8_t { SupportPlane, VertexPlane, SupportPair, PointFace };

/// One held contact (a scalar constraint gap = 0 while it pushes).
struct HeldRow {
  RowKind kind = RowKind::SupportPlane;
  int a = 0, pa = 0;     ///< body A (movable) and its part
  int b = -1, pb = -1;   ///< body B (movable or fixed) and its part; -1: a plane
  int plane = -1;        ///< the plane (b = -1)
  int vertex = -1;       ///< VertexPlane: the vertex of polyhedron part pa
  Vec3 rhoA = Vec3::Zero();  ///< PointFace: the point on A, A's body frame, m
  Vec3 rhoB = Vec3::Zero();  ///< PointFace: a point of B's face, B's body frame, m
  Vec3 nB = Vec3::UnitZ();   ///< PointFace: the face's unit normal, B's body frame (towards A)
  /// Elastic contacts keep the normal speed of the bounce that was held (m/s) and give it back
  /// when they let go, so holding a chattering elastic contact loses no energy.
  double stored = 0.0;
  double e = 1.0;        ///< restitution of the pair
  /// Step scratch: the row let go in its group's last constrained flow (reset every step).
  bool lifted = false;
};

/// A row evaluated at a state: its gap and gradient (normal from B to A, body-frame levers).
struct RowValue {
  double gap = 0.0;
  Vec3 n = Vec3::UnitZ();
  Vec3 chiA = Vec3::Zero();
  Vec3 chiB = Vec3::Zero();
  Vec3 point = Vec3::Zero();  ///< contact point on A, world
};

/// Evaluates `row` with A in state sa and B in state sb (ignored for planes and fixed B).
RowValue evaluateRow(const WorldModel& w, const HeldRow& row, const BodyState& sa,
                     const BodyState& sb);

/// Normal relative velocity of a row (m/s, negative: closing), from the momenta.
double rowVelocity(const WorldModel& w, const RowValue& v, const HeldRow& row, const BodyState& sa,
                   const BodyState& sb);

/// Scratch of the constrained step.
struct HeldWork {
  contact::LcpSolver lcp;
  std::vector<double> Lambda;
  std::vector<RowValue> start, end;
  std::vector<BodyState> kicked;
  void reserve(int rows, int bodies);
};

struct ConstrainedResult {
  bool ok = true;
  int iterations = 0;
  double residual = 0.0;  ///< largest |gap| of a pushing row at the end, m
  const char* what = "";
};

/// The constrained step of an island over tau (s): `bodies` are its movable bodies (indices into
/// w.bodies), `rows` its held contacts; `from` and `to` are indexed by body (only the island's
/// entries are read and written). `lifted[k]` is set to 1 for a row that let go (both multipliers
/// zero and the contact opening), 0 otherwise.
ConstrainedResult constrainedFlow(const WorldModel& w, std::span<const int> bodies,
                                  std::span<const HeldRow> rows, const std::vector<BodyState>& from,
                                  double tau, std::vector<BodyState>& to, std::vector<char>& lifted,
                                  HeldWork& work);

}  // namespace ricochet::bodies
