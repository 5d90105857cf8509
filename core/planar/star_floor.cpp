// star-floor: a four-point star rigid body bouncing on a floor, SE(2) (FMOW §4.3).
#include "core/planar/planar_simulation.hpp"
#include "core/planar/planar_systems.hpp"

namespace ricochet::planar {
namespace {

using Model = StarFloorModel<>;

constexpr NameList kParams{"m", "L", "g", "restitution"};
constexpr NameList kInitial{"x0", "y0", "theta0", "vx0", "vy0", "omega0"};

PlanarStart<Model> start(const Scenario& sc) {
  const std::span<const double> p(sc.parameters), ic(sc.initial);
  const double m = p[kParams("m")], L = p[kParams("L")];
  PlanarStart<Model> s;
  s.model.potentialTerm = UniformGravity{m, p[kParams("g")]};
  s.model.massDiagonal = Model::Vec(m, m, Model::kInertiaFactor * m * L * L);
  s.model.L = L;
  s.model.lengthScale = L;
  s.q0 = Model::Vec(ic[kInitial("x0")], ic[kInitial("y0")], ic[kInitial("theta0")]);
  s.qdot0 = Model::Vec(ic[kInitial("vx0")], ic[kInitial("vy0")], ic[kInitial("omega0")]);
  s.where = "y0 = " + formatNumber(s.q0[1]) + ", theta0 = " + formatNumber(s.q0[2]);
  s.restitution = p[kParams("restitution")];
  return s;
}

class StarFloor final : public SystemDescription {
 public:
  StarFloor() {
    readsNames(kParams.view(), kInitial.view());
    info_.id = "star-floor";
    info_.title = "Four-point star on a floor";
    info_.source = "004 §4.3";
    info_.summary =
        "A rotating four-point star (convex hull: a square of side L) falls under gravity and "
        "bounces elastically on the floor on its tips. Each tip is a smooth unilateral "
        "constraint; corner landings are resolved sequentially. p_x is conserved exactly, "
        "p_theta is constant between impacts, and the energy stays in a bounded band.";
    info_.parameters = {
        {"m", "kg", 1.0, 0.0, kUnbounded, true, false, "Mass of the star (FMOW §4.3: 1)."},
        {"L", "m", 1.0, 0.0, kUnbounded, true, false,
         "Side of the square hull (tip to tip along an edge); the moment of inertia is derived, "
         "I = 29/192 m L^2 (FMOW §4.3), not a free parameter."},
        {"g", "m/s^2", 9.8, 0.0, kUnbounded, false, false,
         "Gravitational acceleration along -y (not stated by FMOW; 9.8 proposed)."},
        restitutionSpec(),
    };
    info_.initial = {
        {"x0", "m", 0.0, -kUnbounded, kUnbounded, false, false, "Initial horizontal position of the centre."},
        {"y0", "m", 3.5, -kUnbounded, kUnbounded, false, false,
         "Initial height of the centre (every tip must be at or above the floor)."},
        {"theta0", "rad", 0.0, -kUnbounded, kUnbounded, false, false,
         "Initial body angle from the horizontal (counter-clockwise)."},
        {"vx0", "m/s", -2.0, -kUnbounded, kUnbounded, false, false, "Initial horizontal velocity."},
        {"vy0", "m/s", 0.0, -kUnbounded, kUnbounded, false, false, "Initial vertical velocity."},
        {"omega0", "rad/s", 5.0, -kUnbounded, kUnbounded, false, false, "Initial angular velocity."},
    };
    info_.integrators = planarIntegrators<Model>(start);
    info_.constraints = {"tip++", "tip+-", "tip-+", "tip--"};
    info_.defaultH = 0.005;
    info_.defaultTEnd = 30.0;
    info_.defaultTolerance = 1e-14;
  }

  const SystemInfo& info() const override { return info_; }

  SceneSpec scene(std::span<const double> parameters) const override {
    const double L = parameters[kParams("L")];
    // Tips at the hull corners, inner vertices on the axes at r L: the uniform plate with this
    // outline has FMOW's I = 29/192 m L^2 (planar_systems.hpp), so what is drawn is what moves.
    const double t = 0.5 * L, r = starInnerVertexRatio() * L;
    PrismShape star;
    star.outline = {{r, 0.0}, {t, t}, {0.0, r}, {-t, t}, {-r, 0.0}, {-t, -t}, {0.0, -r}, {t, -t}};
    star.depth = 0.2 * L;
    SceneSpec s;
    s.view = ViewKind::Planar;
    BodySpec body;
    body.name = "star";
    body.parts.push_back(BodyPart{star, Pose{}, {0.85f, 0.45f, 0.20f}, false});
    s.bodies.push_back(std::move(body));
    PlaneObstacle floor;
    floor.normal = Eigen::Vector3d::UnitY();
    floor.halfExtent = 5.0 * L;
    s.obstacles.push_back(floor);
    s.characteristicLength = L;
    return s;
  }

 private:
  SystemInfo info_;
};

}  // namespace

const SystemDescription& starFloorSystem() {
  static const StarFloor system;
  return system;
}

}  // namespace ricochet::planar
