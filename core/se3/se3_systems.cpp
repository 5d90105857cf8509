// Registration of the se3 systems (ellipsoid-plane, ellipsoid-tilted, ellipsoids-union,
// cube-plane): paper 003 §7, Table 3, with the corrections in docs/se3-lgvci.md ("Corrections
// of the paper's data"); then rigid-body (rigid_body_system.cpp), which shares their initial
// conditions and integrators.
#include "core/se3/se3_systems.hpp"

#include "core/se3/rigid_body_system.hpp"

#include "core/bodies/stepper.hpp"
#include "core/impact/stepper_simulation.hpp"
#include "core/model/registry.hpp"

#include <Eigen/LU>

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace ricochet {

namespace se3 {
namespace {

enum class Kind { Ellipsoid, TiltedEllipsoid, Union, Cube };

constexpr double kDegree = std::numbers::pi / 180.0;

ParameterSpec positive(std::string name, std::string unit, double value, std::string help) {
  return ParameterSpec{std::move(name), std::move(unit), value, 0.0, kUnbounded, true, false,
                       std::move(help)};
}
ParameterSpec anyValue(std::string name, std::string unit, double value, std::string help) {
  return ParameterSpec{std::move(name), std::move(unit), value, -kUnbounded, kUnbounded, false,
                       false, std::move(help)};
}

}  // namespace

// Initial conditions shared by the four cases (paper §7: x0 = (0,0,10), gamma0 = (2,2,10) with
// m = 1, Pi0 = (4,-4,4), R0 = I). makeSetup reads them by name (kInitial).
std::vector<ParameterSpec> initialConditionSpecs() {
  return {
      anyValue("x0", "m", 0.0, "Initial centre-of-mass position, world x."),
      anyValue("y0", "m", 0.0, "Initial centre-of-mass position, world y."),
      anyValue("z0", "m", 10.0, "Initial centre-of-mass height, world z (up)."),
      anyValue("vx0", "m/s", 2.0, "Initial centre-of-mass velocity, world x (gamma0 = m v0)."),
      anyValue("vy0", "m/s", 2.0, "Initial centre-of-mass velocity, world y (gamma0 = m v0)."),
      anyValue("vz0", "m/s", 10.0, "Initial centre-of-mass velocity, world z (gamma0 = m v0)."),
      anyValue("Pi1_0", "kg m^2/s", 4.0,
               "Initial angular momentum about the centre of mass, body-frame component 1 (Pi = J Omega)."),
      anyValue("Pi2_0", "kg m^2/s", -4.0,
               "Initial angular momentum about the centre of mass, body-frame component 2."),
      anyValue("Pi3_0", "kg m^2/s", 4.0,
               "Initial angular momentum about the centre of mass, body-frame component 3."),
      anyValue("rx0", "rad", 0.0,
               "Initial attitude as a rotation vector r0 (axis times angle), x component: R0 = exp(hat(r0))."),
      anyValue("ry0", "rad", 0.0,
               "Initial attitude rotation vector, y component (ry0 = pi*1e-8 is the paper's attitude perturbation R_y(pi*1e-8))."),
      anyValue("rz0", "rad", 0.0, "Initial attitude rotation vector, z component."),
  };
}

namespace {

ParameterSpec massSpec(std::string help) { return positive("m", "kg", 1.0, std::move(help)); }
ParameterSpec gravitySpec() {
  return ParameterSpec{"g", "m/s^2", 9.80665, 0.0, kUnbounded, false, false,
                       "Gravitational acceleration, along -z in every case (also over the tilted plane)."};
}

// The names each case's code reads, in the order of its spec list (makeInfo).
constexpr NameList kEllipsoidParams{"m", "g", "a", "b", "c", "restitution"};
constexpr NameList kTiltedParams{"m", "g", "a", "b", "c", "tilt", "restitution"};
constexpr NameList kUnionParams{"m",  "g",  "a1", "b1", "c1", "a2", "b2", "c2",
                                "d1", "d2", "cx", "J1", "J2", "J3", "restitution"};
constexpr NameList kCubeParams{"m", "g", "s", "epsilon", "restitution"};
constexpr NameList kInitial{"x0",    "y0",    "z0",    "vx0", "vy0", "vz0",
                            "Pi1_0", "Pi2_0", "Pi3_0", "rx0", "ry0", "rz0"};
// Every case lists its mass and gravity first, so they are read the same way in all of them.
constexpr NameList kCommon{"m", "g"};
static_assert(kEllipsoidParams("g") == kCommon("g") && kTiltedParams("g") == kCommon("g") &&
              kUnionParams("g") == kCommon("g") && kCubeParams("g") == kCommon("g"));
// The tilted case is the ellipsoid's list plus the tilt.
static_assert(kTiltedParams("c") == kEllipsoidParams("c"));

std::span<const std::string_view> namesOf(Kind kind) {
  switch (kind) {
    case Kind::Ellipsoid: return kEllipsoidParams.view();
    case Kind::TiltedEllipsoid: return kTiltedParams.view();
    case Kind::Union: return kUnionParams.view();
    case Kind::Cube: return kCubeParams.view();
  }
  return {};
}

/// The two ways of locating the impact time: the integrator's id, its description and the root
/// finder. One table for the integrator list, the factories and makeSetup().
struct ImpactTimeIntegrator {
  const char* name;
  const char* title;
  const char* help;
  ImpactTimeSolver solver;
};
constexpr ImpactTimeIntegrator kIntegrators[] = {
    {"variational", "LGVCI on SE(3)",
     "Lie group variational collision integrator (Tran & Leok, paper 003, Algorithm 5.2): "
     "Cayley LGVI away from impacts (symplectic, conserves R Pi and, to round-off, energy), "
     "elastic frictionless jump conserving energy and n.(R Pi). The impact time is found by "
     "Brent's method on the paper's bisection bracket: the same impact states to within the "
     "tolerance, with about 10 instead of 50 sub-steps per impact.",
     ImpactTimeSolver::Brent},
    {"variational-bisection", "LGVCI on SE(3), paper's bisection",
     "The same integrator with the impact time found exactly as in the paper (bisection to "
     "the tolerance, keeping the admissible side): the reference the default is checked "
     "against.",
     ImpactTimeSolver::Bisection},
};

CreateResult createSe3(const Scenario& scenario) {
  Setup setup = makeSetup(scenario);
  if (!setup.error.empty()) return CreateResult{nullptr, std::move(setup.error)};
  return CreateResult{makeSimulation(setup), {}};
}

}  // namespace

std::vector<IntegratorInfo> lgvciIntegrators(std::function<CreateResult(const Scenario&)> create) {
  std::vector<IntegratorInfo> infos;
  for (const ImpactTimeIntegrator& i : kIntegrators) {
    infos.push_back({i.name, i.title, i.help, create});
  }
  return infos;
}

void applyIntegratorSettings(const Scenario& scenario, RigidBodyModel& model) {
  model.tolerance = scenario.integrator.tolerance;
  for (const ImpactTimeIntegrator& i : kIntegrators) {
    if (scenario.integrator.name == i.name) model.impactTimeSolver = i.solver;
  }
}

namespace {

SystemInfo makeInfo(Kind kind) {
  SystemInfo info;
  info.initial = initialConditionSpecs();
  info.integrators = lgvciIntegrators(createSe3);
  info.constraints = {"plane"};
  info.defaultH = 0.01;
  info.defaultTEnd = 30.0;
  info.defaultTolerance = 1e-15;
  const std::string ellipsoidMass =
      "Total mass; uniform solid ellipsoid, so J = (m/5) diag(b^2+c^2, a^2+c^2, a^2+b^2).";
  switch (kind) {
    case Kind::Ellipsoid:
    case Kind::TiltedEllipsoid:
      info.parameters = {
          massSpec(ellipsoidMass), gravitySpec(),
          positive("a", "m", 2.0, "Semi-axis along body x."),
          positive("b", "m", 3.0, "Semi-axis along body y."),
          positive("c", "m", 4.0, "Semi-axis along body z."),
      };
      if (kind == Kind::Ellipsoid) {
        info.id = "ellipsoid-plane";
        info.title = "Triaxial ellipsoid over a horizontal plane";
        info.source = "003 §7 case I, Table 3";
        info.summary =
            "A uniform triaxial ellipsoid (semi-axes 2, 3, 4 m) thrown spinning onto the horizontal "
            "plane z = 0. Elastic frictionless impacts exchange energy between translation and "
            "rotation; the total energy, the horizontal momentum and n.(R Pi) are conserved, and "
            "the centre of mass moves along x = y = 2t.";
      } else {
        info.id = "ellipsoid-tilted";
        info.title = "Triaxial ellipsoid over a tilted plane";
        info.source = "003 §7 case II, Table 3";
        info.summary =
            "The case I ellipsoid over a plane tilted 2 degrees about the world y axis, normal "
            "n = (sin tilt, 0, cos tilt); gravity stays along -z, so the body bounces down the "
            "incline. Conserved: energy, the y momentum and n.(R Pi).";
        info.parameters.push_back(ParameterSpec{
            "tilt", "rad", 2.0 * kDegree, -std::numbers::pi / 2.0, std::numbers::pi / 2.0, true,
            true,
            "Plane tilt about the world y axis (2 degrees = 0.0349 rad): normal n = (sin tilt, 0, cos tilt)."});
      }
      info.parameters.push_back(restitutionSpec());
      break;
    case Kind::Union:
      info.id = "ellipsoids-union";
      info.title = "Union of two ellipsoids over a horizontal plane";
      info.source = "003 §7 case III, Table 3";
      info.summary =
          "A rigid body made of two overlapping ellipsoids (semi-axes 3,4,5 and 6,1,1 m) whose "
          "centres lie on the body x axis, shifted so the centroid is at the origin; the lowest "
          "point is the lower of the two parts' support points. Inertia as printed by the paper "
          "(symmetrised).";
      info.parameters = {
          massSpec("Total mass (the inertia J1..J3 is given separately, for m = 1 kg as in the paper)."),
          gravitySpec(),
          positive("a1", "m", 3.0, "Ellipsoid 1 semi-axis along body x."),
          positive("b1", "m", 4.0, "Ellipsoid 1 semi-axis along body y."),
          positive("c1", "m", 5.0, "Ellipsoid 1 semi-axis along body z."),
          positive("a2", "m", 6.0, "Ellipsoid 2 semi-axis along body x."),
          positive("b2", "m", 1.0, "Ellipsoid 2 semi-axis along body y."),
          positive("c2", "m", 1.0, "Ellipsoid 2 semi-axis along body z."),
          anyValue("d1", "m", 1.5, "Body x of ellipsoid 1's centre before the centroid shift cx."),
          anyValue("d2", "m", -4.5, "Body x of ellipsoid 2's centre before the centroid shift cx."),
          anyValue("cx", "m", -0.9937128,
                   "Centroid shift along body x added to both centres (the paper's c; an exact "
                   "computation gives -0.9741762)."),
          positive("J1", "kg m^2", 7.5932718,
                   "Principal moment of inertia about body x (paper's Mathematica value for m = 1 kg, symmetrised; not recomputed from the geometry)."),
          positive("J2", "kg m^2", 9.9326434, "Principal moment of inertia about body y (paper's value)."),
          positive("J3", "kg m^2", 8.2731252, "Principal moment of inertia about body z (paper's value)."),
          restitutionSpec(),
      };
      break;
    case Kind::Cube:
      info.id = "cube-plane";
      info.title = "Epsilon-rounded cube over a horizontal plane";
      info.source = "003 §7 case IV, Table 3, §6.3";
      info.summary =
          "A uniform cube of side 2 sqrt(3) m whose corners and edges are rounded by epsilon = 1e-13 m "
          "(epsilon-rounding of the signed distance), so corner impacts have a unique normal. "
          "Conserved: energy, the horizontal momentum and n.(R Pi).";
      info.parameters = {
          massSpec("Total mass; uniform solid cube, so J = (m s^2/6) I (the rounding is ignored)."),
          gravitySpec(),
          positive("s", "m", 2.0 * std::sqrt(3.0), "Side length of the cube (vertices at +-s/2)."),
          ParameterSpec{"epsilon", "m", 1e-13, 0.0, kUnbounded, false, false,
                        "Rounding radius of the corners and edges (epsilon-rounding, paper §6.3)."},
          restitutionSpec(),
      };
      break;
  }
  return info;
}

class Se3System final : public SystemDescription {
 public:
  explicit Se3System(Kind kind) : kind_(kind), info_(makeInfo(kind)) {
    readsNames(namesOf(kind), kInitial.view());
  }
  const SystemInfo& info() const override { return info_; }
  SceneSpec scene(std::span<const double> parameters) const override;

  Kind kind() const { return kind_; }

 private:
  Kind kind_;
  SystemInfo info_;
};

Vec3 planeNormal(const Se3System& sys, std::span<const double> p) {
  if (sys.kind() != Kind::TiltedEllipsoid) return Vec3::UnitZ();
  // n = R_y(tilt) e3: the paper's counterclockwise rotation about the y axis, read with the
  // right-hand rule (docs/se3-lgvci.md, "The tilt sign").
  const double tilt = p[kTiltedParams("tilt")];
  return Vec3(std::sin(tilt), 0.0, std::cos(tilt));
}

SceneSpec Se3System::scene(std::span<const double> p) const {
  SceneSpec s;
  s.view = ViewKind::Spatial;
  BodySpec body;
  const Rgb orange{0.90f, 0.50f, 0.20f}, blue{0.25f, 0.50f, 0.85f};
  switch (kind_) {
    case Kind::Ellipsoid:
    case Kind::TiltedEllipsoid: {
      const Vec3 axes(p[kEllipsoidParams("a")], p[kEllipsoidParams("b")], p[kEllipsoidParams("c")]);
      body.name = "ellipsoid";
      body.parts.push_back(BodyPart{EllipsoidShape{axes}, Pose{}, orange, true});
      s.characteristicLength = axes.maxCoeff();
      break;
    }
    case Kind::Union: {
      const auto& k = kUnionParams;
      const double cx = p[k("cx")];
      body.name = "ellipsoids";
      Pose p1, p2;
      p1.position = Vec3(p[k("d1")] + cx, 0.0, 0.0);
      p2.position = Vec3(p[k("d2")] + cx, 0.0, 0.0);
      const Vec3 axes1(p[k("a1")], p[k("b1")], p[k("c1")]);
      const Vec3 axes2(p[k("a2")], p[k("b2")], p[k("c2")]);
      body.parts.push_back(BodyPart{EllipsoidShape{axes1}, p1, orange, true});
      body.parts.push_back(BodyPart{EllipsoidShape{axes2}, p2, blue, true});
      s.characteristicLength = std::max(axes1.maxCoeff(), axes2.maxCoeff());
      break;
    }
    case Kind::Cube: {
      const double half = 0.5 * p[kCubeParams("s")];
      body.name = "cube";
      body.parts.push_back(
          BodyPart{BoxShape{Vec3::Constant(half), p[kCubeParams("epsilon")]}, Pose{}, orange, true});
      s.characteristicLength = 2.0 * half;
      break;
    }
  }
  s.bodies.push_back(std::move(body));
  PlaneObstacle plane;
  plane.normal = planeNormal(*this, p);
  plane.halfExtent = 5.0 * s.characteristicLength;
  s.obstacles.push_back(plane);
  return s;
}

// ---------------------------------------------------------------------------------------------
// The running simulation.

const std::vector<std::string>& traceColumns(bool withLz) {
  static const std::vector<std::string> columns = {
      "q.x",   "q.y",   "q.z",   "q.R11", "q.R12", "q.R13", "q.R21",  "q.R22",
      "q.R23", "q.R31", "q.R32", "q.R33", "p.x",   "p.y",   "p.z",    "p.Pi1",
      "p.Pi2", "p.Pi3", "mom.px", "mom.py", "mom.nRPi", "e.translational", "e.rotational",
      "con.gap"};
  static const std::vector<std::string> withAngular = [] {
    std::vector<std::string> c = columns;
    c.insert(c.begin() + 21, "mom.Lz");  // after mom.nRPi, with the other momenta
    return c;
  }();
  return withLz ? withAngular : columns;
}

}  // namespace

std::shared_ptr<bodies::WorldModel> oneBodyWorld(const RigidBodyModel& model) {
  auto w = std::make_shared<bodies::WorldModel>();
  w->g = model.g;
  w->restitution = model.restitution;
  w->tolerance = model.tolerance;
  w->maxNewtonIterations = model.maxNewtonIterations;
  w->maxRootIterations = model.maxBisectionIterations;
  w->impactTimeSolver = model.impactTimeSolver;
  w->maxImpactsPerBody = model.maxImpactsPerStep;
  bodies::Body b;
  b.name = "body";
  b.m = model.m;
  b.J = model.J;
  b.shape = model.shape;
  b.parts = contact::partsOf(b.shape);
  for (const contact::PartInfo& part : b.parts) {
    b.reach = std::max(b.reach, part.centre.norm() + part.radius);
  }
  bodies::finishBody(b);
  w->bodies.push_back(std::move(b));
  bodies::Plane ground;
  ground.n = model.n;
  ground.offset = 0.0;
  ground.gap = 0;
  ground.name = "plane";
  w->planes.push_back(ground);
  for (const Wall& wall : model.walls) {
    bodies::Plane p;
    p.n = wall.n;
    p.offset = wall.offset;
    p.gap = wall.gap;
    p.name = wall.name;
    w->planes.push_back(p);
  }
  return w;
}

namespace {

class RigidBodyPlaneSimulation final : public impact::StepperSimulation<bodies::BodiesStepper> {
 public:
  explicit RigidBodyPlaneSimulation(const Setup& setup)
      : impact::StepperSimulation<bodies::BodiesStepper>(
            bodies::BodiesStepper(oneBodyWorld(setup.model), setup.h, -1),
            bodies::WorldState{{setup.initial}, {}}),
        model_(setup.model),
        withLz_(setup.verticalAngularMomentum) {}

  EnergySplit energy() const override {
    const RigidBodyState& s = state_.bodies[0];
    EnergySplit e;
    e.kinetic = 0.5 * s.gamma.squaredNorm() / model_.m + rotationalEnergy(model_, s) +
                state_.storedEnergy();
    e.potential = model_.m * model_.g * s.x.z();
    return e;
  }

  double minGap() const override { return phi(model_, state_.bodies[0].x, state_.bodies[0].R); }

  std::span<const std::string> columns() const override { return traceColumns(withLz_); }

  void sample(std::span<double> out) const override {
    const RigidBodyModel& model = model_;
    const RigidBodyState& s = state_.bodies[0];
    std::size_t i = 0;
    for (int k = 0; k < 3; ++k) out[i++] = s.x(k);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) out[i++] = s.R(r, c);
    for (int k = 0; k < 3; ++k) out[i++] = s.gamma(k);
    for (int k = 0; k < 3; ++k) out[i++] = s.Pi(k);
    out[i++] = s.gamma.x();
    out[i++] = s.gamma.y();
    out[i++] = model.n.dot(s.R * s.Pi);
    if (withLz_) out[i++] = s.x.cross(s.gamma).z() + (s.R * s.Pi).z();
    out[i++] = translationalEnergy(model, s);
    out[i++] = rotationalEnergy(model, s);
    out[i++] = phi(model, s.x, s.R);
  }

  void poses(std::span<Pose> out) const override {
    if (out.empty()) return;
    out[0].position = state_.bodies[0].x;
    out[0].rotation = state_.bodies[0].R;
  }

 private:
  RigidBodyModel model_;
  bool withLz_;
};

}  // namespace

Setup makeSetup(const Scenario& scenario) {
  Setup out;
  const auto* sys = dynamic_cast<const Se3System*>(findSystem(scenario.system));
  if (!sys) {
    out.error = "'" + scenario.system + "' is not an SE(3) system";
    return out;
  }
  const std::span<const double> p = scenario.parameters;
  RigidBodyModel& model = out.model;
  model.m = p[kCommon("m")];
  model.g = p[kCommon("g")];
  model.n = planeNormal(*sys, p);
  model.restitution = p.back();  // every case lists restitution last (namesOf)
  applyIntegratorSettings(scenario, model);
  switch (sys->kind()) {
    case Kind::Ellipsoid:
    case Kind::TiltedEllipsoid: {
      const auto& k = kEllipsoidParams;  // the tilted case reads a, b, c at the same places
      const double a = p[k("a")], b = p[k("b")], c = p[k("c")];
      // Uniform solid ellipsoid.
      model.J = (model.m / 5.0) * Vec3(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal();
      model.shape.ellipsoids.push_back(makeEllipsoid(Vec3::Zero(), Vec3(a, b, c)));
      break;
    }
    case Kind::Union: {
      const auto& k = kUnionParams;
      const double cx = p[k("cx")];
      model.shape.ellipsoids.push_back(makeEllipsoid(Vec3(p[k("d1")] + cx, 0.0, 0.0),
                                                     Vec3(p[k("a1")], p[k("b1")], p[k("c1")])));
      model.shape.ellipsoids.push_back(makeEllipsoid(Vec3(p[k("d2")] + cx, 0.0, 0.0),
                                                     Vec3(p[k("a2")], p[k("b2")], p[k("c2")])));
      const std::array<double, 3> J = {p[k("J1")], p[k("J2")], p[k("J3")]};
      // A physical mass distribution needs J_d = tr(J)/2 I - J > 0: each J_i < J_j + J_k.
      for (int i = 0; i < 3; ++i) {
        const double others = J[(i + 1) % 3] + J[(i + 2) % 3];
        if (!(J[i] < others)) {
          out.error = "parameter 'J" + std::to_string(i + 1) + "' = " + formatNumber(J[i]) +
                      " is not a physical moment of inertia: must be < J" +
                      std::to_string((i + 1) % 3 + 1) + " + J" + std::to_string((i + 2) % 3 + 1) +
                      " = " + formatNumber(others) + " kg m^2";
          return out;
        }
      }
      model.J = Vec3(J[0], J[1], J[2]).asDiagonal();
      break;
    }
    case Kind::Cube: {
      const double s = p[kCubeParams("s")];
      model.J = (model.m * s * s / 6.0) * Mat3::Identity();  // uniform solid cube, rounding ignored
      model.shape.polyhedra.push_back(
          makeBox(Vec3::Zero(), Vec3::Constant(0.5 * s), p[kCubeParams("epsilon")]));
      break;
    }
  }
  updateInverseInertia(model);
  if (std::string e = validate(model.shape); !e.empty()) {
    out.error = "invalid body geometry: " + e;
    return out;
  }

  const std::span<const double> q = scenario.initial;
  if (q.size() != kInitial.names.size()) {
    out.error = "scenario for '" + scenario.system + "' needs 12 initial conditions";
    return out;
  }
  out.initial = initialStateOf(q, model.m);
  out.h = scenario.integrator.h;
  out.error = checkInitialState(model, out.initial, out.h, [](int) { return std::string("plane"); });
  return out;
}

RigidBodyState initialStateOf(std::span<const double> q, double m) {
  const auto& k = kInitial;
  RigidBodyState s;
  s.x = Vec3(q[k("x0")], q[k("y0")], q[k("z0")]);
  s.gamma = m * Vec3(q[k("vx0")], q[k("vy0")], q[k("vz0")]);
  s.Pi = Vec3(q[k("Pi1_0")], q[k("Pi2_0")], q[k("Pi3_0")]);
  s.R = expSO3(Vec3(q[k("rx0")], q[k("ry0")], q[k("rz0")]));
  return s;
}

std::string checkInitialState(const RigidBodyModel& model, const RigidBodyState& s, double h,
                              const std::function<std::string(int)>& gapName) {
  // Every plane on its own, so the message names the one the body cuts.
  for (int j = 0; j <= int(model.walls.size()); ++j) {
    const Vec3& n = planeNormal(model, j);
    const double offset = j == 0 ? 0.0 : model.walls[std::size_t(j - 1)].offset;
    SupportPoint status;
    double gap = n.dot(s.x) - offset + lowestHeight(model.shape, s.R.transpose() * n, &status);
    if (!status.ok) gap = std::numeric_limits<double>::quiet_NaN();  // Phi unknown there
    if (!(gap > 0.0)) {
      return "initial condition outside the admissible set: gap '" + gapName(j) + "' Phi = " +
             formatNumber(gap) + " m <= 0 (the body touches or cuts " +
             (j == 0 ? std::string("the plane; raise z0)") : "that wall; move the body or the wall)");
    }
  }
  // The Cayley SolveF needs well under a half turn per step: ask for <= 1 rad
  // (docs/design-notes.md, "Rotation per step: the Cayley limit").
  const double turn = h * (model.Jinv * s.Pi).norm();
  if (!(turn <= 1.0)) {
    return "time step h = " + formatNumber(h) + " s is too large for the initial spin: " +
           "h |Omega0| = " + formatNumber(turn) + " rad per step, must be <= 1";
  }
  return {};
}

std::unique_ptr<Simulation> makeSimulation(const Setup& setup) {
  return std::make_unique<RigidBodyPlaneSimulation>(setup);
}

}  // namespace se3

void appendSe3Systems(std::vector<const SystemDescription*>& out) {
  // Function-local statics: constructed on first use, never in static-initialisation order.
  static const se3::Se3System ellipsoidPlane(se3::Kind::Ellipsoid);
  static const se3::Se3System ellipsoidTilted(se3::Kind::TiltedEllipsoid);
  static const se3::Se3System ellipsoidsUnion(se3::Kind::Union);
  static const se3::Se3System cubePlane(se3::Kind::Cube);
  out.push_back(&ellipsoidPlane);
  out.push_back(&ellipsoidTilted);
  out.push_back(&ellipsoidsUnion);
  out.push_back(&cubePlane);
  out.push_back(&se3::rigidBodySystem());  // core/se3/rigid_body_system.cpp
}

}  // namespace ricochet
