// The rigid-body system: the LGVCI of paper 003 with the body and the world taken from the
// scenario (its "body" and "world" objects, or `ricochet-cli run rigid-body --body FILE`): any
// union of ellipsoids and epsilon-rounded convex hulls, over the ground plane (tilted as in
// ellipsoid-tilted) and among walls. Parameters and initial conditions are cube-plane's where
// they apply, and the default body is its cube.
#include "core/se3/rigid_body_system.hpp"

#include "core/impact/stepper_simulation.hpp"
#include "core/model/registry.hpp"
#include "core/se3/rigid_body.hpp"
#include "core/se3/se3_systems.hpp"

#include <cmath>
#include <numbers>

namespace ricochet::se3 {

namespace {

constexpr NameList kParams{"m", "g", "epsilon", "tilt", "restitution"};
constexpr NameList kInitialNames{"x0",    "y0",    "z0",    "vx0", "vy0", "vz0",
                                 "Pi1_0", "Pi2_0", "Pi3_0", "rx0", "ry0", "rz0"};

// Constraint names: the ground, the box's walls, then the listed walls ("wall1" ...).
constexpr const char* kBoxWalls[] = {"box.-x", "box.+x", "box.-y", "box.+y", "box.top"};
constexpr int kFirstListedWall = 6;

const std::vector<std::string>& constraintNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"plane"};
    for (const char* b : kBoxWalls) n.emplace_back(b);
    for (int k = 1; k <= kMaxWorldPlanes; ++k) n.push_back("wall" + std::to_string(k));
    return n;
  }();
  return names;
}

std::shared_ptr<const BodyScenario> defaultBody() {
  auto b = std::make_shared<BodyScenario>();
  b->body.shape = BodyNode::Shape::Box;
  b->body.size = Vec3::Constant(2.0 * std::sqrt(3.0));  // paper 003's cube (case IV)
  return b;
}

Vec3 groundNormal(std::span<const double> p) {
  const double tilt = p[kParams("tilt")];  // n = R_y(tilt) e3, as ellipsoid-tilted
  return Vec3(std::sin(tilt), 0.0, std::cos(tilt));
}

/// The planes of a world after the ground. Empty string on success, else what is wrong.
std::string wallsOf(const WorldSpec& world, std::vector<Wall>& walls) {
  const std::vector<std::string>& names = constraintNames();
  if (world.box) {
    const BoxWorld& b = *world.box;
    const double x0 = b.center.x() - 0.5 * b.size.x(), x1 = b.center.x() + 0.5 * b.size.x();
    const double y0 = b.center.y() - 0.5 * b.size.y(), y1 = b.center.y() + 0.5 * b.size.y();
    walls.push_back({Vec3::UnitX(), x0, 1, names[1].c_str()});
    walls.push_back({-Vec3::UnitX(), -x1, 2, names[2].c_str()});
    walls.push_back({Vec3::UnitY(), y0, 3, names[3].c_str()});
    walls.push_back({-Vec3::UnitY(), -y1, 4, names[4].c_str()});
    if (b.height > 0.0) walls.push_back({-Vec3::UnitZ(), -b.height, 5, names[5].c_str()});
  }
  if (world.walls.size() > std::size_t(kMaxWorldPlanes)) {
    return "world: " + std::to_string(world.walls.size()) + " walls, at most " +
           std::to_string(kMaxWorldPlanes);
  }
  for (std::size_t k = 0; k < world.walls.size(); ++k) {
    const WallSpec& w = world.walls[k];
    const double length = w.normal.norm();
    if (!(length > 0.0) || !std::isfinite(length) || !w.point.allFinite()) {
      return "world.walls[" + std::to_string(k) + "]: needs a finite point and a non-zero normal";
    }
    const Vec3 n = w.normal / length;
    const int gap = kFirstListedWall + int(k);
    walls.push_back({n, n.dot(w.point), gap, names[std::size_t(gap)].c_str()});
  }
  return {};
}

class RigidBodySystem final : public SystemDescription {
 public:
  RigidBodySystem() : info_(makeInfo()) { readsNames(kParams.view(), kInitialNames.view()); }
  const SystemInfo& info() const override { return info_; }

  SceneSpec scene(std::span<const double> parameters) const override {
    Scenario s = defaultScenario(*this);
    s.parameters.assign(parameters.begin(), parameters.end());
    return scene(s);
  }
  SceneSpec scene(const Scenario& scenario) const override;
  std::optional<BodyFigures> bodyFigures(const Scenario& scenario) const override {
    if (!scenario.body) return std::nullopt;
    const BuiltBody b = buildScenarioBody(scenario);
    if (!b.ok()) return std::nullopt;
    return BodyFigures{b.mass, b.volume, b.centreOfMass, b.principalMoments, b.inputVertices,
                       b.hullVertices};
  }

 private:
  static SystemInfo makeInfo();
  SystemInfo info_;
};

SystemInfo RigidBodySystem::makeInfo() {
  SystemInfo info;
  info.id = "rigid-body";
  info.title = "Your own rigid body among walls";
  info.source = "003 §6 (any union of convex bodies)";
  info.summary =
      "Any rigid body over the ground plane: an ellipsoid, an epsilon-rounded box or convex "
      "polyhedron, the rounded convex hull of a mesh file (STL, OBJ, PLY; an OBJ's groups become "
      "a union of hulls) or a union of these, with its mass, centre of mass and inertia computed "
      "exactly for uniform density. Optional walls (a box, or any planes) bound the world; the "
      "energy is conserved to round-off, and so are the momenta the walls leave free.";
  info.initial = initialConditionSpecs();
  info.integrators = lgvciIntegrators(createRigidBody);
  info.constraints = constraintNames();
  info.defaultH = 0.01;
  info.defaultTEnd = 30.0;
  info.defaultTolerance = 1e-15;
  info.defaultBody = defaultBody();
  info.parameters = {
      ParameterSpec{"m", "kg", 1.0, 0.0, kUnbounded, true, false,
                    "Total mass (not used when the body gives a density: then density x volume)."},
      ParameterSpec{"g", "m/s^2", 9.80665, 0.0, kUnbounded, false, false,
                    "Gravitational acceleration, along -z (also over a tilted ground)."},
      ParameterSpec{"epsilon", "m", 1e-13, 0.0, kUnbounded, false, false,
                    "Rounding radius of the boxes, polyhedra and meshes that give none of their "
                    "own (epsilon-rounding, paper 003 §6.3; included in the mass properties)."},
      ParameterSpec{"tilt", "rad", 0.0, -std::numbers::pi / 2.0, std::numbers::pi / 2.0, true, true,
                    "Ground tilt about the world y axis: normal n = (sin tilt, 0, cos tilt)."},
      restitutionSpec(),
  };
  return info;
}

SceneSpec RigidBodySystem::scene(const Scenario& scenario) const {
  const std::span<const double> p = scenario.parameters;
  SceneSpec s;
  s.view = ViewKind::Spatial;
  BodySpec body;
  body.name = "body";
  const BuiltBody b = buildScenarioBody(scenario);
  const Rgb orange{0.90f, 0.50f, 0.20f}, blue{0.25f, 0.50f, 0.85f}, grey{0.45f, 0.47f, 0.50f};
  if (b.ok() && scenario.body) {
    int k = 0;
    for (const BuiltBody::Hull& h : b.hulls) {
      body.parts.push_back(BodyPart{HullShape{h.vertices, h.triangles, h.epsilon}, Pose{},
                                    k++ % 2 ? blue : orange, false});
    }
    for (const BuiltBody::Ellipsoid& e : b.ellipsoids) {
      Pose pose;
      pose.position = e.centre;
      pose.rotation = e.orientation;
      body.parts.push_back(BodyPart{EllipsoidShape{e.semiAxes}, pose, k++ % 2 ? blue : orange, true});
    }
    for (const BuiltBody::Surface& o : b.originals) {
      BodyPart faint{SurfaceShape{o.points, o.triangles}, Pose{}, grey, false};
      faint.opacity = 0.3f;
      body.parts.push_back(std::move(faint));
    }
    s.characteristicLength = std::max(2.0 * b.reach, 1e-3);
  } else {
    body.parts.push_back(BodyPart{SphereShape{0.5}, Pose{}, grey, true});  // never run: invalid
  }
  s.bodies.push_back(std::move(body));
  const double L = s.characteristicLength;

  PlaneObstacle ground;
  ground.normal = groundNormal(p);
  ground.halfExtent = 5.0 * L;
  s.obstacles.push_back(ground);
  std::vector<Wall> walls;
  if (scenario.body && wallsOf(scenario.body->world, walls).empty()) {
    const Rgb glass{0.55f, 0.70f, 0.85f};
    const std::optional<BoxWorld>& box = scenario.body->world.box;
    for (const Wall& w : walls) {
      PlaneObstacle wall;
      wall.normal = w.n;
      wall.point = w.offset * w.n;
      wall.color = glass;
      wall.opacity = 0.25;
      wall.followBody = false;
      if (box && w.gap < kFirstListedWall) {
        // The box's faces: rectangles of the box's size, standing on the floor.
        // Without a given height, as high as the body can reach from its start with all its
        // translational energy spent climbing (z0 + |v0|^2 / 2g + reach): the walls are planes
        // without a top, and a pane lower than the motion shows impacts in mid-air.
        const std::span<const double> q0 = scenario.initial;
        const double v2 = q0[kInitialNames("vx0")] * q0[kInitialNames("vx0")] +
                          q0[kInitialNames("vy0")] * q0[kInitialNames("vy0")] +
                          q0[kInitialNames("vz0")] * q0[kInitialNames("vz0")];
        const double g = p[kParams("g")];
        const double climb = g > 0.0 ? v2 / (2.0 * g) : 0.0;
        const double reach = q0[kInitialNames("z0")] + climb + 0.5 * L;
        const double top = box->height > 0.0
                               ? box->height
                               : std::max(0.5 * std::max(box->size.x(), box->size.y()),
                                          std::isfinite(reach) ? reach : 0.0);
        const Vec3 centre(box->center.x(), box->center.y(), 0.5 * top);
        wall.point = centre + (w.offset - w.n.dot(centre)) * w.n;
        if (w.gap == 5) {
          wall.halfSize = 0.5 * box->size;
        } else {
          wall.halfSize = Eigen::Vector2d(0.5 * (w.gap <= 2 ? box->size.y() : box->size.x()), 0.5 * top);
        }
      } else {
        wall.halfSize = Eigen::Vector2d::Constant(2.5 * L);
      }
      wall.halfExtent = wall.halfSize.maxCoeff();
      s.obstacles.push_back(wall);
    }
  }
  return s;
}

}  // namespace

BuiltBody buildScenarioBody(const Scenario& scenario) {
  if (!scenario.body) {
    BuiltBody none;
    none.error = "scenario for 'rigid-body' has no body";
    return none;
  }
  const std::span<const double> p = scenario.parameters;
  return buildBody(*scenario.body, p[kParams("epsilon")], p[kParams("m")]);
}

Setup makeRigidBodySetup(const Scenario& scenario) {
  Setup out;
  const std::span<const double> p = scenario.parameters;
  const BuiltBody b = buildScenarioBody(scenario);
  if (!b.ok()) {
    out.error = b.error;
    return out;
  }
  RigidBodyModel& model = out.model;
  model.m = b.mass;
  model.g = p[kParams("g")];
  model.restitution = p[kParams("restitution")];
  model.n = groundNormal(p);
  model.J = b.J;
  updateInverseInertia(model);
  model.shape = b.shape;
  model.reach = b.reach;
  if (std::string e = wallsOf(scenario.body->world, model.walls); !e.empty()) {
    out.error = e;
    return out;
  }
  applyIntegratorSettings(scenario, model);
  out.initial = initialStateOf(scenario.initial, model.m);
  out.h = scenario.integrator.h;
  out.verticalAngularMomentum = true;
  out.error = checkInitialState(model, out.initial, out.h, [&](int j) {
    return constraintNames()[std::size_t(planeGap(model, j))];
  });
  return out;
}

CreateResult createRigidBody(const Scenario& scenario) {
  Setup setup = makeRigidBodySetup(scenario);
  if (!setup.error.empty()) return CreateResult{nullptr, std::move(setup.error)};
  return CreateResult{makeSimulation(setup), {}};
}

const SystemDescription& rigidBodySystem() {
  static const RigidBodySystem system;
  return system;
}

}  // namespace ricochet::se3
