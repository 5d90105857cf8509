// The `bodies` system (see bodies_system.hpp).
#include "core/bodies/bodies_system.hpp"

#include "core/impact/stepper_simulation.hpp"
#include "core/model/registry.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

namespace ricochet::bodies {

namespace {

constexpr NameList kParams{"g", "restitution", "epsilon"};

// Constraint names: the ground, the box's walls, the listed walls ("wall1" ...), then "body".
constexpr const char* kBoxWalls[] = {"box.-x", "box.+x", "box.-y", "box.+y", "box.top"};
constexpr int kFirstListedWall = 6;

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string vecText(const Vec3& v) {
  std::string s(1, '(');
  s += formatNumber(v.x());
  s += ", ";
  s += formatNumber(v.y());
  s += ", ";
  s += formatNumber(v.z());
  s += ')';
  return s;
}

std::shared_ptr<const BodyScenario> defaultWorld() {
  // The stack drop (spec case M11): a light ball resting on a heavy one, dropped so that the
  // lower one's bottom falls 1 m onto the ground. Generalized reflections resolve the ground
  // first, then the pair: the upper ball leaves at 29/11 of the landing speed.
  auto w = std::make_shared<BodyScenario>();
  BodyEntry lower;
  lower.name = "lower";
  lower.body.shape = BodyNode::Shape::Sphere;
  lower.body.size = Vec3::Constant(0.5);
  lower.position = Vec3(0.0, 0.0, 1.5);
  BodyEntry upper = lower;
  upper.name = "upper";
  upper.mass = 0.1;
  upper.position = Vec3(0.0, 0.0, 2.5);
  w->bodies = {lower, upper};
  return w;
}

bool validName(const std::string& n) {
  if (n.empty() || n.size() > 64) return false;
  for (char c : n) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool reservedName(const std::string& n) {
  static const std::set<std::string> words = {"parameters", "initial", "world", "plane", "box",
                                              "body", "bodies", "h", "t_end", "tolerance",
                                              "integrator"};
  if (words.count(n)) return true;
  if (n.rfind("wall", 0) == 0 && n.size() > 4 &&
      std::all_of(n.begin() + 4, n.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return true;
  }
  return false;
}

class BodiesSystem final : public SystemDescription {
 public:
  BodiesSystem() : info_(makeInfo()) { readsNames(kParams.view(), {}); }
  const SystemInfo& info() const override { return info_; }
  SceneSpec scene(std::span<const double> parameters) const override {
    Scenario s = defaultScenario(*this);
    s.parameters.assign(parameters.begin(), parameters.end());
    return scene(s);
  }
  SceneSpec scene(const Scenario& scenario) const override {
    const WorldSetup setup = makeWorldSetup(scenario);
    if (!setup.error.empty() || !scenario.body) return SceneSpec{};
    return sceneOf(setup, *scenario.body);
  }

 private:
  static SystemInfo makeInfo();
  SystemInfo info_;
};

CreateResult createBodies(const Scenario& scenario);

SystemInfo BodiesSystem::makeInfo() {
  SystemInfo info;
  info.id = "bodies";
  info.title = "Several rigid bodies that hit each other";
  info.source = "003 + 004 (many bodies; generalized reflections)";
  info.summary =
      "Any number of rigid bodies (spheres, ellipsoids, rounded boxes and hulls, meshes, unions) "
      "that collide with each other, with the ground and walls, and with fixed bodies. Each body "
      "takes its own Lie group variational step between impacts; contacts that close at once are "
      "resolved together by generalized reflections, so energy and momentum are conserved and a "
      "symmetric scene stays symmetric.";
  info.integrators = {
      {"variational", "LGVCI on SE(3), many bodies",
       "Each body's Lie group variational step between impacts; impact times by Brent's method "
       "on the end-of-step bracket; simultaneous contacts by generalized reflections.",
       createBodies},
      {"variational-sequential", "LGVCI, pairwise sequential impacts",
       "The same integrator, with contacts that close at once resolved one pair at a time "
       "(fastest approach first): the rule whose outcome depends on which pair goes first, kept "
       "to compare.",
       createBodies},
  };
  info.constraints = worldConstraintNames();
  info.defaultH = 0.01;
  info.defaultTEnd = 10.0;
  info.defaultTolerance = 1e-15;
  info.defaultBody = defaultWorld();
  info.parameters = {
      ParameterSpec{"g", "m/s^2", 9.80665, 0.0, kUnbounded, false, false,
                    "Gravitational acceleration along -z (0: no gravity)."},
      restitutionSpec(),
      ParameterSpec{"epsilon", "m", 1e-13, 0.0, kUnbounded, false, false,
                    "Rounding radius of boxes, polyhedra and meshes that give none of their own."},
  };
  return info;
}

/// Trace columns: totals, then each body's own (when `perBody`).
std::vector<std::string> columnsOf(const WorldModel& w, bool perBody, bool dissipative) {
  std::vector<std::string> c = {"mom.px", "mom.py", "mom.pz", "mom.Lx", "mom.Ly", "mom.Lz"};
  if (dissipative) c.push_back("e.dissipated");
  if (!perBody) return c;
  static const char* kq[] = {"q.x",   "q.y",   "q.z",   "q.R11", "q.R12", "q.R13",
                             "q.R21", "q.R22", "q.R23", "q.R31", "q.R32", "q.R33"};
  static const char* kp[] = {"p.x", "p.y", "p.z", "p.Pi1", "p.Pi2", "p.Pi3", "e.kinetic"};
  for (const Body& b : w.bodies) {
    for (const char* q : kq) c.push_back(b.name + "." + q);
    for (const char* p : kp) c.push_back(b.name + "." + p);
  }
  return c;
}

/// At most this many bodies get their own trace columns (more: totals only).
constexpr std::size_t kPerBodyColumnsUpTo = 100;

class BodiesSimulation final : public impact::StepperSimulation<BodiesStepper> {
 public:
  BodiesSimulation(const WorldSetup& setup, bool dissipative)
      : impact::StepperSimulation<BodiesStepper>(
            BodiesStepper(setup.model, setup.h, bodyPairConstraint()), setup.initial),
        columns_(columnsOf(*setup.model, setup.model->bodies.size() <= kPerBodyColumnsUpTo,
                           dissipative)),
        dissipative_(dissipative) {
    for (const Body& b : setup.model->bodies) names_.push_back(b.name);
  }

  std::span<const std::string> bodyNames() const { return names_; }

  EnergySplit energy() const override {
    const WorldModel& w = stepper_.model();
    EnergySplit e;
    e.kinetic = state_.storedEnergy();  // bounces kept by held elastic contacts
    for (std::size_t i = 0; i < w.bodies.size(); ++i) {
      e.kinetic += kineticEnergy(w.bodies[i], state_.bodies[i]);
      e.potential += potentialEnergy(w, w.bodies[i], state_.bodies[i]);
    }
    return e;
  }

  double minGap() const override {
    const WorldModel& w = stepper_.model();
    double g = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < w.bodies.size(); ++i) {
      const Body& b = w.bodies[i];
      if (b.fixed) continue;
      contact::Placement p{&b.shape, state_.bodies[i].x, state_.bodies[i].R};
      for (const Plane& pl : w.planes) {
        for (const contact::PartInfo& part : b.parts) {
          g = std::min(g, contact::planeGap(p, part, pl.n, pl.offset).gap);
        }
      }
    }
    return g;
  }

  std::span<const std::string> columns() const override { return columns_; }

  void sample(std::span<double> out) const override {
    const WorldModel& w = stepper_.model();
    Vec3 P = Vec3::Zero(), L = Vec3::Zero();
    for (std::size_t i = 0; i < w.bodies.size(); ++i) {
      if (w.bodies[i].fixed) continue;
      const BodyState& s = state_.bodies[i];
      P += s.gamma;
      L += s.x.cross(s.gamma) + s.R * s.Pi;
    }
    std::size_t k = 0;
    for (int j = 0; j < 3; ++j) out[k++] = P(j);
    for (int j = 0; j < 3; ++j) out[k++] = L(j);
    if (dissipative_) out[k++] = dissipatedEnergy();
    if (k == out.size()) return;
    for (std::size_t i = 0; i < w.bodies.size(); ++i) {
      const BodyState& s = state_.bodies[i];
      for (int j = 0; j < 3; ++j) out[k++] = s.x(j);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) out[k++] = s.R(r, c);
      for (int j = 0; j < 3; ++j) out[k++] = s.gamma(j);
      for (int j = 0; j < 3; ++j) out[k++] = s.Pi(j);
      out[k++] = kineticEnergy(w.bodies[i], s);
    }
  }

  void poses(std::span<Pose> out) const override {
    for (std::size_t i = 0; i < out.size() && i < state_.bodies.size(); ++i) {
      out[i].position = state_.bodies[i].x;
      out[i].rotation = state_.bodies[i].R;
    }
  }


 private:
  std::vector<std::string> columns_;
  bool dissipative_;
  std::vector<std::string> names_;  // by body index: the impacts' "A|B"
};

CreateResult createBodies(const Scenario& scenario) {
  WorldSetup setup = makeWorldSetup(scenario);
  if (!setup.error.empty()) return CreateResult{nullptr, std::move(setup.error)};
  bool dissipative = setup.model->restitution < 1.0;
  for (const auto& [key, e] : setup.model->pairRestitution) dissipative = dissipative || e < 1.0;
  return CreateResult{std::make_unique<BodiesSimulation>(setup, dissipative), {}};
}

}  // namespace

const std::vector<std::string>& worldConstraintNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"plane"};
    for (const char* b : kBoxWalls) n.emplace_back(b);
    for (int k = 1; k <= kMaxWorldPlanes; ++k) n.push_back("wall" + std::to_string(k));
    n.emplace_back("body");
    return n;
  }();
  return names;
}

int bodyPairConstraint() { return int(worldConstraintNames().size()) - 1; }

std::string planesOf(const WorldSpec& world, bool ground, double tilt, std::vector<Plane>& out) {
  const std::vector<std::string>& names = worldConstraintNames();
  if (ground) {
    Plane p;
    p.n = Vec3(std::sin(tilt), 0.0, std::cos(tilt));
    p.offset = 0.0;
    p.gap = 0;
    p.name = names[0];
    out.push_back(p);
  }
  auto add = [&](const Vec3& n, double offset, int gap) {
    Plane p;
    p.n = n;
    p.offset = offset;
    p.gap = gap;
    p.name = names[std::size_t(gap)];
    out.push_back(p);
  };
  if (world.box) {
    const BoxWorld& b = *world.box;
    const double x0 = b.center.x() - 0.5 * b.size.x(), x1 = b.center.x() + 0.5 * b.size.x();
    const double y0 = b.center.y() - 0.5 * b.size.y(), y1 = b.center.y() + 0.5 * b.size.y();
    add(Vec3::UnitX(), x0, 1);
    add(-Vec3::UnitX(), -x1, 2);
    add(Vec3::UnitY(), y0, 3);
    add(-Vec3::UnitY(), -y1, 4);
    if (b.height > 0.0) add(-Vec3::UnitZ(), -b.height, 5);
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
    add(n, n.dot(w.point), kFirstListedWall + int(k));
  }
  return {};
}

WorldSetup makeWorldSetup(const Scenario& scenario) {
  WorldSetup out;
  if (!scenario.body || scenario.body->bodies.empty()) {
    out.error = "scenario for 'bodies' has no bodies (a \"bodies\" list with at least one body)";
    return out;
  }
  const BodyScenario& d = *scenario.body;
  const std::span<const double> p = scenario.parameters;
  if (d.bodies.size() > std::size_t(kMaxBodies)) {
    out.error = "bodies: " + std::to_string(d.bodies.size()) + " bodies, at most " +
                std::to_string(kMaxBodies);
    return out;
  }
  auto model = std::make_shared<WorldModel>();
  model->g = p[kParams("g")];
  model->restitution = p[kParams("restitution")];
  model->tolerance = scenario.integrator.tolerance;
  model->law = scenario.integrator.name == "variational-sequential" ? ImpactLaw::Sequential
                                                                     : ImpactLaw::GeneralizedReflections;
  const double epsilon = p[kParams("epsilon")];
  if (std::string e = planesOf(d.world, d.ground, 0.0, model->planes); !e.empty()) {
    out.error = e;
    return out;
  }
  // Names, masses, bodies.
  std::set<std::string> seen;
  out.built.reserve(d.bodies.size());
  model->bodies.reserve(d.bodies.size());
  out.initial.bodies.reserve(d.bodies.size());
  for (std::size_t i = 0; i < d.bodies.size(); ++i) {
    const BodyEntry& e = d.bodies[i];
    const std::string where = "bodies[" + std::to_string(i) + "]";
    const std::string name = e.name.empty() ? "b" + std::to_string(i) : e.name;
    if (!validName(name)) {
      out.error = where + ": name " + quoted(name) +
                  " must be 1 to 64 letters, digits, '_' or '-'";
      return out;
    }
    if (reservedName(name)) {
      out.error = where + ": name " + quoted(name) + " is reserved (parameters, initial, world, " +
                  "plane, box, wall<k>, ...): choose another";
      return out;
    }
    if (!seen.insert(name).second) {
      out.error = where + ": name " + quoted(name) + " is used by an earlier body";
      return out;
    }
    const Vec3* vectors[] = {&e.position, &e.velocity, &e.rotation, &e.angularMomentum};
    for (const Vec3* v : vectors) {
      if (!v->allFinite()) {
        out.error = "body " + quoted(name) + ": its position, velocity, rotation and angular "
                    "momentum must be finite";
        return out;
      }
    }
    if (e.angularVelocity && !e.angularVelocity->allFinite()) {
      out.error = "body " + quoted(name) + ": angular_velocity " + vecText(*e.angularVelocity) +
                  " must be finite";
      return out;
    }
    if (e.fixed && (e.velocity != Vec3::Zero() || e.angularMomentum != Vec3::Zero() ||
                    (e.angularVelocity && *e.angularVelocity != Vec3::Zero()))) {
      out.error = "body " + quoted(name) + " is fixed but has a velocity or a spin: a fixed body "
                  "never moves";
      return out;
    }
    if (!e.fixed && !e.density && !(e.mass > 0.0 && std::isfinite(e.mass))) {
      out.error = "body " + quoted(name) + ": mass m = " + formatNumber(e.mass) + " kg must be > 0";
      return out;
    }
    BodyScenario one;
    one.body = e.body;
    one.density = e.density;
    se3::BuiltBody built = se3::buildBody(one, epsilon, e.fixed && !e.density ? 1.0 : e.mass);
    if (!built.ok()) {
      std::string msg = built.error;
      if (msg.rfind("body", 0) == 0) msg = msg.substr(4);
      out.error = "body " + quoted(name) + msg;
      return out;
    }
    Body b;
    b.name = name;
    b.fixed = e.fixed;
    b.m = built.mass;
    b.J = built.J;
    b.shape = built.shape;
    b.parts = contact::partsOf(b.shape);
    b.reach = built.reach;
    finishBody(b);
    BodyState s;
    s.x = e.position;
    s.R = se3::expSO3(e.rotation);
    if (!e.fixed) {
      s.gamma = b.m * e.velocity;
      s.Pi = e.angularVelocity ? Vec3(b.J * (s.R.transpose() * *e.angularVelocity))
                               : e.angularMomentum;
    }
    model->bodies.push_back(std::move(b));
    out.initial.bodies.push_back(s);
    out.built.push_back(std::move(built));
  }
  // Pair coefficients of restitution.
  auto indexOfName = [&](const std::string& n, std::int64_t& key) {
    for (std::size_t i = 0; i < model->bodies.size(); ++i) {
      if (model->bodies[i].name == n) {
        key = std::int64_t(i);
        return true;
      }
    }
    for (std::size_t k = 0; k < model->planes.size(); ++k) {
      if (model->planes[k].name == n) {
        key = planeIndex(int(k));
        return true;
      }
    }
    return false;
  };
  for (const PairRestitution& r : d.restitution) {
    std::int64_t a = 0, b = 0;
    if (!indexOfName(r.first, a) || !indexOfName(r.second, b)) {
      out.error = "restitution " + quoted(r.first + "|" + r.second) + ": " +
                  quoted(indexOfName(r.first, a) ? r.second : r.first) +
                  " is not a body or a plane of this world";
      return out;
    }
    if (!(r.e >= 0.0 && r.e <= 1.0)) {
      out.error = "restitution " + quoted(r.first + "|" + r.second) + " = " + formatNumber(r.e) +
                  " must be in [0, 1]";
      return out;
    }
    model->pairRestitution.emplace_back(pairKey(a, b), r.e);
  }
  std::sort(model->pairRestitution.begin(), model->pairRestitution.end());
  // Overlaps at the start: touching (gap >= -closedGap) is allowed.
  const double touch = model->closedGap;
  for (std::size_t i = 0; i < model->bodies.size(); ++i) {
    const Body& b = model->bodies[i];
    if (b.fixed) continue;
    const contact::Placement pl{&b.shape, out.initial.bodies[i].x, out.initial.bodies[i].R};
    for (const Plane& plane : model->planes) {
      for (const contact::PartInfo& part : b.parts) {
        const double g = contact::planeGap(pl, part, plane.n, plane.offset).gap;
        if (!(g >= -touch)) {
          out.error = "initial condition outside the admissible set: body " + quoted(b.name) +
                      " cuts " + quoted(plane.name) + " by " + formatNumber(-g) +
                      " m (gap " + formatNumber(g) + " m; touching, gap >= -1e-12 m, is allowed)";
          return out;
        }
      }
    }
  }
  {
    std::vector<Aabb> boxes(model->bodies.size());
    std::vector<char> still(model->bodies.size(), 0);
    for (std::size_t i = 0; i < model->bodies.size(); ++i) {
      const double r = model->bodies[i].reach;
      boxes[i].lo = out.initial.bodies[i].x - Vec3::Constant(r + touch);
      boxes[i].hi = out.initial.bodies[i].x + Vec3::Constant(r + touch);
      still[i] = model->bodies[i].fixed ? 1 : 0;
    }
    BroadPhase broad;
    broad.reserve(int(boxes.size()));
    broad.findPairs(boxes, still);
    for (const auto& [i, j] : broad.pairs()) {
      const Body& A = model->bodies[std::size_t(i)];
      const Body& B = model->bodies[std::size_t(j)];
      const contact::Placement pa{&A.shape, out.initial.bodies[std::size_t(i)].x,
                                  out.initial.bodies[std::size_t(i)].R};
      const contact::Placement pb{&B.shape, out.initial.bodies[std::size_t(j)].x,
                                  out.initial.bodies[std::size_t(j)].R};
      for (const contact::PartInfo& qa : A.parts) {
        for (const contact::PartInfo& qb : B.parts) {
          const contact::PairGap g = contact::pairGap(pa, qa, pb, qb, pa.x - pb.x);
          if (!(g.gap >= -touch)) {
            out.error = "initial condition outside the admissible set: bodies " + quoted(A.name) +
                        " and " + quoted(B.name) + " overlap by " +
                        (g.overlap ? "more than " + formatNumber(-g.gap) : formatNumber(-g.gap)) +
                        " m (gap " + formatNumber(g.gap) +
                        " m; touching, gap >= -1e-12 m, is allowed)";
            return out;
          }
        }
      }
    }
  }
  out.h = scenario.integrator.h;
  out.model = std::move(model);
  return out;
}

SceneSpec sceneOf(const WorldSetup& setup, const BodyScenario& description) {
  SceneSpec s;
  s.view = ViewKind::Spatial;
  const Rgb palette[] = {{0.90f, 0.50f, 0.20f}, {0.25f, 0.50f, 0.85f}, {0.35f, 0.70f, 0.35f},
                         {0.80f, 0.30f, 0.45f}, {0.85f, 0.75f, 0.25f}, {0.55f, 0.40f, 0.75f}};
  const Rgb grey{0.50f, 0.52f, 0.55f};
  double lo = std::numeric_limits<double>::infinity(), size = 0.0;
  Vec3 low = Vec3::Constant(lo), high = Vec3::Constant(-lo);
  for (std::size_t i = 0; i < setup.built.size(); ++i) {
    const se3::BuiltBody& b = setup.built[i];
    const Body& body = setup.model->bodies[i];
    BodySpec spec;
    spec.name = body.name;
    const Rgb color = body.fixed ? grey : palette[i % std::size(palette)];
    for (const se3::BuiltBody::Hull& h : b.hulls) {
      if (h.vertices.size() == 1) {
        Pose at;
        at.position = h.vertices[0];
        spec.parts.push_back(BodyPart{SphereShape{h.epsilon}, at, color, true});
      } else {
        spec.parts.push_back(BodyPart{HullShape{h.vertices, h.triangles, h.epsilon}, Pose{}, color, false});
      }
    }
    for (const se3::BuiltBody::Ellipsoid& e : b.ellipsoids) {
      Pose pose;
      pose.position = e.centre;
      pose.rotation = e.orientation;
      spec.parts.push_back(BodyPart{EllipsoidShape{e.semiAxes}, pose, color, true});
    }
    s.bodies.push_back(std::move(spec));
    size = std::max(size, 2.0 * b.reach);
    low = low.cwiseMin(setup.initial.bodies[i].x - Vec3::Constant(b.reach));
    high = high.cwiseMax(setup.initial.bodies[i].x + Vec3::Constant(b.reach));
  }
  s.characteristicLength = std::max(size, 1e-3);
  const double extent = std::max((high - low).maxCoeff(), s.characteristicLength);
  for (const Plane& p : setup.model->planes) {
    PlaneObstacle o;
    o.normal = p.n;
    o.point = p.offset * p.n;
    if (p.gap == 0) {
      o.halfExtent = 2.0 * extent + 5.0 * s.characteristicLength;
    } else {
      o.color = {0.55f, 0.70f, 0.85f};
      o.opacity = 0.25;
      o.followBody = false;
      const Vec3 c = 0.5 * (low + high);
      o.point = c + (p.offset - p.n.dot(c)) * p.n;
      o.halfSize = Eigen::Vector2d::Constant(0.75 * extent);
      if (description.world.box && p.gap < kFirstListedWall) {
        const BoxWorld& box = *description.world.box;
        const double top = box.height > 0.0 ? box.height : std::max(high.z(), 0.5 * box.size.maxCoeff());
        const Vec3 centre(box.center.x(), box.center.y(), 0.5 * top);
        o.point = centre + (p.offset - p.n.dot(centre)) * p.n;
        o.halfSize = p.gap == 5 ? Eigen::Vector2d(0.5 * box.size)
                                : Eigen::Vector2d(0.5 * (p.gap <= 2 ? box.size.y() : box.size.x()), 0.5 * top);
      }
      o.halfExtent = o.halfSize.maxCoeff();
    }
    s.obstacles.push_back(o);
  }
  return s;
}

const SystemDescription& bodiesSystem() {
  static const BodiesSystem system;
  return system;
}

std::span<const std::string> bodyNamesOf(const Simulation& simulation) {
  const auto* world = dynamic_cast<const BodiesSimulation*>(&simulation);
  return world ? world->bodyNames() : std::span<const std::string>();
}

}  // namespace ricochet::bodies

namespace ricochet {
void appendBodiesSystems(std::vector<const SystemDescription*>& out) {
  out.push_back(&bodies::bodiesSystem());
}
}  // namespace ricochet
