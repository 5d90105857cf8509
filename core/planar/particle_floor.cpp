// particle-floor: a particle bouncing on a floor in the vertical plane (FMOW §4.2, P000 §4.1).
#include "core/planar/planar_simulation.hpp"
#include "core/planar/planar_systems.hpp"

namespace ricochet::planar {
namespace {

using Model = ParticleFloorModel<>;

constexpr NameList kParams{"m", "g", "restitution"};
constexpr NameList kInitial{"x0", "y0", "vx0", "vy0"};

PlanarStart<Model> start(const Scenario& sc) {
  const std::span<const double> p(sc.parameters), ic(sc.initial);
  PlanarStart<Model> s;
  const double m = p[kParams("m")];
  s.model.potentialTerm = UniformGravity{m, p[kParams("g")]};
  s.model.massDiagonal = Model::Vec(m, m);
  s.model.lengthScale = 1.0;
  s.q0 = Model::Vec(ic[kInitial("x0")], ic[kInitial("y0")]);
  s.qdot0 = Model::Vec(ic[kInitial("vx0")], ic[kInitial("vy0")]);
  s.where = "y0 = " + formatNumber(s.q0[1]);
  s.restitution = p[kParams("restitution")];
  return s;
}

class ParticleFloor final : public SystemDescription {
 public:
  ParticleFloor() {
    readsNames(kParams.view(), kInitial.view());
    info_.id = "particle-floor";
    info_.title = "Particle bouncing on a floor";
    info_.source = "004 §4.2, 000 §4.1";
    info_.summary =
        "A point mass under uniform gravity in the vertical plane bounces elastically on the "
        "floor y = 0. The variational integrator keeps the energy in a bounded O(h^2) band over "
        "thousands of impacts and the horizontal momentum p_x exactly constant.";
    info_.parameters = {
        {"m", "kg", 1.0, 0.0, kUnbounded, true, false, "Mass of the particle (FMOW §4.2: 1)."},
        {"g", "m/s^2", 9.8, 0.0, kUnbounded, false, false,
         "Gravitational acceleration along -y (not stated by FMOW; 9.8 as in P000)."},
        restitutionSpec(),
    };
    info_.initial = {
        {"x0", "m", 0.0, -kUnbounded, kUnbounded, false, false, "Initial horizontal position."},
        {"y0", "m", 1.0, -kUnbounded, kUnbounded, false, false,
         "Initial height above the floor (admissible: >= 0)."},
        {"vx0", "m/s", -2.0, -kUnbounded, kUnbounded, false, false, "Initial horizontal velocity."},
        {"vy0", "m/s", 0.0, -kUnbounded, kUnbounded, false, false, "Initial vertical velocity."},
    };
    info_.integrators = planarIntegrators<Model>(start);
    info_.constraints = {"floor"};
    info_.defaultH = 0.01;
    info_.defaultTEnd = 20.0;
    info_.defaultTolerance = 1e-14;
  }

  const SystemInfo& info() const override { return info_; }

  SceneSpec scene(std::span<const double>) const override {
    SceneSpec s;
    s.view = ViewKind::Planar;
    BodySpec body;
    body.name = "particle";
    body.parts.push_back(BodyPart{SphereShape{0.05}, Pose{}, {0.85f, 0.45f, 0.20f}, false});
    s.bodies.push_back(std::move(body));
    PlaneObstacle floor;
    floor.normal = Eigen::Vector3d::UnitY();
    floor.halfExtent = 5.0;
    s.obstacles.push_back(floor);
    s.characteristicLength = 1.0;
    return s;
  }

 private:
  SystemInfo info_;
};

}  // namespace

const SystemDescription& particleFloorSystem() {
  static const ParticleFloor system;
  return system;
}

}  // namespace ricochet::planar
