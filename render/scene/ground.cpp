#include "render/scene/ground.hpp"

#include "render/scene/scene_geometry.hpp"

#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::render::detail {
namespace {

// Heights (in L) of coplanar layers above their surface, so each wins the depth test from any
// angle: floor patch 0 < shadow < grid lines < table disc < its grid < shadow on the table.
constexpr double kShadowLift = 1e-3;
constexpr double kGridLift = 2e-3;
constexpr double kDiscLift = 3e-3;
constexpr double kDiscGridLift = 4e-3;
constexpr double kDiscShadowLift = 5e-3;
// A following floor reaches at least this many camera distances from the body (it is opaque to
// 0.45 of that, then fades: the haze at the horizon).
constexpr double kFloorPerDistance = 1.0;
constexpr int kPieces = 48;  // per line / edge, for a smooth fade

// About L/2, but never more than ~200 lines across a patch of half-size `half` (memory, and the
// per-frame fade, grow with the line count).
double minorGridStep(double L, double half) {
  return std::max(geometry::niceStep(L / 2.0), geometry::niceStep(half / 100.0));
}

}  // namespace

struct Ground::Build {
  const SceneSpec& scene;
  double L;
  Eigen::Vector3d up;
  double frontZ;
  PropList& props;
  Problems& problems;
  Ground& ground;

  // alpha < 0: opaque, no fade (opaque props write depth; translucent ones do not, so a large
  // ground that must hide what lies behind it has to be opaque).
  vtkSmartPointer<vtkActor> addFollowing(vtkSmartPointer<vtkPolyData> pd, const Eigen::Matrix4d& frame,
                                         double snap, bool alongB, double half,
                                         const Eigen::Vector3d& color, double alpha, bool lit) {
    if (alpha < 0.0) {
      Follower f;
      f.frame = frame;
      f.alongB = alongB;
      f.snap = snap;
      f.half = half;
      f.matrix = vtkSmartPointer<vtkMatrix4x4>::New();
      setMatrix(f.matrix, frame);
      vtkSmartPointer<vtkActor> a = makeActor(pd);
      a->GetProperty()->SetColor(color.x(), color.y(), color.z());
      if (!lit) a->GetProperty()->LightingOff();
      a->SetUserMatrix(f.matrix);
      ground.followers_.push_back(f);
      props.add(a);
      return a;
    }
    Follower f;
    f.frame = frame;
    f.alongB = alongB;
    f.snap = snap;
    f.half = half;
    f.matrix = vtkSmartPointer<vtkMatrix4x4>::New();
    f.data = pd;
    f.rgba = vtkSmartPointer<vtkUnsignedCharArray>::New();
    f.rgba->SetName("FadeColors");
    f.rgba->SetNumberOfComponents(4);
    f.rgba->SetNumberOfTuples(pd->GetNumberOfPoints());
    pd->GetPointData()->SetScalars(f.rgba);
    for (int k = 0; k < 3; ++k) {
      f.color[k] = static_cast<unsigned char>(std::lround(255.0 * std::clamp(color[k], 0.0, 1.0)));
    }
    f.alpha = alpha;
    setMatrix(f.matrix, frame);
    vtkSmartPointer<vtkActor> a = makeActor(pd);
    auto* mapper = static_cast<vtkPolyDataMapper*>(a->GetMapper());
    mapper->ScalarVisibilityOn();
    mapper->SetScalarModeToUsePointData();
    mapper->SetColorModeToDirectScalars();
    if (!lit) a->GetProperty()->LightingOff();
    a->SetUserMatrix(f.matrix);
    fade(f, frame.block<3, 1>(0, 3));
    ground.followers_.push_back(f);
    props.add(a);
    return a;
  }

  double minorGridStep(double half) const { return detail::minorGridStep(L, half); }

  void plane(const PlaneObstacle& plane, int index) {
    const std::string who = "obstacle " + std::to_string(index) + " (plane): ";
    if (!finite(plane.point) || !finite(plane.normal) || plane.normal.norm() < 1e-12) {
      problems.note(who + "point and normal must be finite with a non-zero normal (not drawn)");
      return;
    }
    if (!positive(plane.halfExtent)) {
      problems.note(who + "halfExtent = " + num(plane.halfExtent) + " m is not > 0 (not drawn)");
      return;
    }
    const Eigen::Vector3d n = plane.normal.normalized();
    const Eigen::Vector3d color = rgb(plane.color);
    if (plane.opacity < 1.0) {
      glass(plane, n, color);
      return;
    }
    // Drawn with a half-size of at most kMaxPlanePatch L: it fades out well before its edge, and
    // VTK puts the near clipping plane at ~1e-3 of the scene's depth, so a 100 km patch would clip
    // the bodies away.
    const double H = std::min(plane.halfExtent, kMaxPlanePatch * L);
    // Grid: minor lines every ~L/2 (a nice number), major every 5 minor; the patch recentres in
    // whole major steps so both stay put in the world.
    const double minor = minorGridStep(H);
    const double major = 5.0 * minor;
    const double snap = plane.followBody ? major : 0.0;
    const int pieces = kPieces;
    if (scene.view == ViewKind::Planar && std::fabs(n.z()) < 1e-9) {
      // Seen edge-on from +z: the classic hatched ground. Frame: x along the floor, y = normal.
      Eigen::Matrix4d f = Eigen::Matrix4d::Identity();
      f.block<3, 1>(0, 0) = Eigen::Vector3d(n.y(), -n.x(), 0.0);
      f.block<3, 1>(0, 1) = n;
      f.block<3, 1>(0, 2) = Eigen::Vector3d::UnitZ();
      f.block<3, 1>(0, 3) = plane.point;
      // Solid ground below the line, hatched in a thin strip under it. Both are as wide and the
      // ground as deep as the largest patch (kMaxPlanePatch L each way, whatever the obstacle's
      // halfExtent), recentred under the body: wider and deeper than any view of the scene, a
      // 16:9 video or a window with both docks closed included, so the ground never shows an
      // end or the backdrop under it.
      const double W = kMaxPlanePatch * L;
      const double hatchDepth = 0.3 * minor;
      const Eigen::Vector3d band = 0.3 * color + 0.7 * Eigen::Vector3d(0.93, 0.94, 0.95);
      addFollowing(geometry::groundBand(W, W, pieces), f, snap, false, W, band, -1.0, false);
      vtkSmartPointer<vtkActor> hatch = addFollowing(geometry::groundHatch(W, hatchDepth, minor / 10.0, pieces),
                                                     f, snap, false, W, 0.6 * color, 1.0, false);
      hatch->GetProperty()->SetLineWidth(1.5f);
      return;
    }
    // A floor (normal near `up`) is a square around its point. A wall stands on the floors: its
    // in-plane b axis points up, it starts where it meets a floor, and it fades sideways only.
    const bool wall = std::fabs(n.dot(up)) < 0.3;
    Eigen::Matrix4d f = frameWithZ(plane.point, n, Eigen::Vector3d::UnitX());
    Eigen::Vector2d lo(-H, -H), hi(H, H);
    if (wall) {
      const Eigen::Vector3d b = (up - up.dot(n) * n).normalized();
      f.block<3, 1>(0, 1) = b;
      f.block<3, 1>(0, 0) = b.cross(n);
      for (const Obstacle& o : scene.obstacles) {
        const auto* other = std::get_if<PlaneObstacle>(&o);
        if (!other || !finite(other->normal) || other->normal.norm() < 1e-12) continue;
        const Eigen::Vector3d nf = other->normal.normalized();
        if (nf.dot(up) <= 0.3 || b.dot(nf) <= 0.3) continue;
        lo.y() = std::clamp((other->point - plane.point).dot(nf) / b.dot(nf), lo.y(), hi.y() - 0.1 * H);
      }
    }
    // The scene's colour as a tint of a light surface: dark floors swallow the bodies' shading.
    // Unlit: under directional lights a flat patch is shaded uniformly anyway, and lighting it
    // cost ~12 ms per frame under llvmpipe (the patch covers half the view). The shade stands in
    // for light from above, in the key light's warm white: floors full, walls darker.
    const Eigen::Vector3d surface = 0.45 * color + 0.55 * Eigen::Vector3d(0.96, 0.96, 0.95);
    const double shade = 0.78 + 0.22 * std::fabs(n.dot(up));
    const Eigen::Vector3d lit = shade * surface.cwiseProduct(Eigen::Vector3d(1.0, 0.985, 0.96));
    const std::size_t first = ground.followers_.size();
    addFollowing(geometry::rectangle(lo, hi, pieces), f, snap, !wall, H, lit, 1.0, false);
    // Grid lines above the patch by a depth-buffer-safe margin (grazing views at 10 L need
    // ~1e-3 L; less gave dashed lines), contact shadows in between.
    Eigen::Matrix4d lifted = f;
    lifted.block<3, 1>(0, 3) += kGridLift * L * n;
    addFollowing(geometry::gridLines(lo, hi, minor, 5, pieces), lifted, snap, !wall, H,
                 0.82 * lit, 1.0, false);
    vtkSmartPointer<vtkActor> majorLines = addFollowing(
        geometry::gridLines(lo, hi, major, 0, pieces), lifted, snap, !wall, H, 0.62 * lit, 1.0, false);
    majorLines->GetProperty()->SetLineWidth(1.5f);
    if (n.dot(up) > 0.3) ground.floors_.push_back(Floor{plane.point, n, f, kShadowLift});
    // An unbounded floor under a moving body (not a wall, not a pane of given size) grows with
    // the camera's distance (fitView).
    if (!wall && plane.followBody && ground.followers_.size() == first + 3) {
      ground.growing_.push_back(GrowingFloor{first, H, L});
    }
  }

  // A translucent wall (a box of walls around a body): a pane of half-sizes halfSize around its
  // point, along the plane's horizontal and the other in-plane direction. No grid, no shadows;
  // it does not follow the body.
  void glass(const PlaneObstacle& plane, const Eigen::Vector3d& n, const Eigen::Vector3d& color) {
    Eigen::Matrix4d f = frameWithZ(plane.point, n, Eigen::Vector3d::UnitX());
    if (std::fabs(n.dot(up)) < 0.999) {
      const Eigen::Vector3d b = (up - up.dot(n) * n).normalized();
      f.block<3, 1>(0, 1) = b;
      f.block<3, 1>(0, 0) = b.cross(n);
    }
    Eigen::Vector2d half = plane.halfSize;
    if (!(half.minCoeff() > 0.0) || !half.allFinite()) half = Eigen::Vector2d::Constant(plane.halfExtent);
    half = half.cwiseMin(kMaxPlanePatch * L);
    auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
    setMatrix(matrix, f);
    vtkSmartPointer<vtkActor> pane = makeActor(geometry::rectangle(-half, half, 1));
    pane->GetProperty()->SetColor(color.x(), color.y(), color.z());
    pane->GetProperty()->SetOpacity(std::clamp(plane.opacity, 0.02, 1.0));
    pane->GetProperty()->LightingOff();
    pane->SetUserMatrix(matrix);
    props.add(pane);
  }

  // Planar scenes: faint graph paper behind the bodies (minor/major lines as on the floors), so
  // heights and drift read against a fixed world grid; it follows the body like a floor patch.
  void backdrop() {
    double half = 10.0 * L;
    for (const Obstacle& o : scene.obstacles) {
      if (const auto* pl = std::get_if<PlaneObstacle>(&o)) {
        if (positive(pl->halfExtent)) half = std::max(half, std::min(pl->halfExtent, kMaxPlanePatch * L));
      }
    }
    const double minor = minorGridStep(half);
    const double major = 5.0 * minor;
    Eigen::Matrix4d f = Eigen::Matrix4d::Identity();
    f(2, 3) = -frontZ;  // behind every body
    const Eigen::Vector2d lo(-half, -half), hi(half, half);
    const Eigen::Vector3d ink(0.55, 0.60, 0.68);
    addFollowing(geometry::gridLines(lo, hi, minor, 5, 48), f, major, true, half, ink, 0.18, false);
    addFollowing(geometry::gridLines(lo, hi, major, 0, 48), f, major, true, half, ink, 0.35, false);
  }

  void cylinder(const CylinderObstacle& c, int index) {
    const std::string who = "obstacle " + std::to_string(index) + " (cylinder): ";
    if (!finite(c.base) || !finite(c.axis) || c.axis.norm() < 1e-12 || !positive(c.radius) ||
        !positive(c.height)) {
      problems.note(who + "needs a finite base, a non-zero axis, radius > 0 and height > 0 (radius = " +
                    num(c.radius) + " m, height = " + num(c.height) + " m; not drawn)");
      return;
    }
    const Eigen::Matrix4d f = frameWithZ(c.base, c.axis.normalized(), Eigen::Vector3d::UnitX());
    vtkNew<vtkMatrix4x4> m;
    setMatrix(m, f);
    const Eigen::Vector3d color = rgb(c.color);
    vtkSmartPointer<vtkActor> wall = makeActor(geometry::tube(c.radius, c.height));
    vtkProperty* p = wall->GetProperty();
    p->SetColor(color.x(), color.y(), color.z());
    p->SetOpacity(std::clamp(std::isfinite(c.opacity) ? c.opacity : 0.25, 0.05, 1.0));
    p->SetAmbient(0.3);
    p->SetDiffuse(0.6);
    p->SetSpecular(0.25);
    p->SetSpecularPower(30.0);
    p->BackfaceCullingOff();  // seen from inside too
    wall->SetUserMatrix(m);
    props.add(wall);
    vtkSmartPointer<vtkActor> rims = makeActor(geometry::tubeOutline(c.radius, c.height, 12));
    lineMaterial(rims->GetProperty(), 0.6 * color, 1.5);
    rims->GetProperty()->SetOpacity(0.8);
    rims->SetUserMatrix(m);
    props.add(rims);
  }

  void disc(const DiscObstacle& disc, int index) {
    const std::string who = "obstacle " + std::to_string(index) + " (disc): ";
    if (!finite(disc.center) || !finite(disc.normal) || disc.normal.norm() < 1e-12 ||
        !positive(disc.radius)) {
      problems.note(who + "needs a finite centre, a non-zero normal and radius > 0 (radius = " +
                    num(disc.radius) + " m; not drawn)");
      return;
    }
    const Eigen::Vector3d n = disc.normal.normalized();
    const Eigen::Matrix4d f0 = frameWithZ(disc.center, n, Eigen::Vector3d::UnitX());
    Eigen::Matrix4d f = f0;  // a table top often lies in the floor plane: stay above it
    f.block<3, 1>(0, 3) += kDiscLift * L * n;
    vtkNew<vtkMatrix4x4> m;
    setMatrix(m, f);
    const Eigen::Vector3d color = rgb(disc.color);
    vtkSmartPointer<vtkActor> top = makeActor(geometry::disc(disc.radius));
    top->GetProperty()->SetColor(color.x(), color.y(), color.z());
    top->GetProperty()->SetAmbient(0.3);
    top->GetProperty()->SetDiffuse(0.7);
    top->GetProperty()->SetSpecular(0.1);
    top->SetUserMatrix(m);
    props.add(top);
    Eigen::Matrix4d lifted = f0;
    lifted.block<3, 1>(0, 3) += kDiscGridLift * L * n;
    vtkNew<vtkMatrix4x4> ml;
    setMatrix(ml, lifted);
    vtkSmartPointer<vtkActor> grid =
        makeActor(geometry::polarGrid(disc.radius, geometry::niceStep(disc.radius / 4.0), 12));
    lineMaterial(grid->GetProperty(), 0.75 * color, 1.2);
    grid->SetUserMatrix(ml);
    props.add(grid);
    if (n.dot(up) > 0.3) ground.floors_.push_back(Floor{disc.center, n, f0, kDiscShadowLift});
  }
};

void Ground::clear() {
  followers_.clear();
  floors_.clear();
  growing_.clear();
}

void Ground::fitView(double distance) {
  if (!(distance > 0.0) || !std::isfinite(distance)) return;
  const double needed = kFloorPerDistance * distance;
  for (GrowingFloor& g : growing_) {
    if (g.half >= needed) continue;
    while (g.half < needed) g.half *= 2.0;
    const double minor = minorGridStep(g.L, g.half);
    const Eigen::Vector2d lo(-g.half, -g.half), hi(g.half, g.half);
    const vtkSmartPointer<vtkPolyData> shapes[3] = {
        geometry::rectangle(lo, hi, kPieces), geometry::gridLines(lo, hi, minor, 5, kPieces),
        geometry::gridLines(lo, hi, 5.0 * minor, 0, kPieces)};
    for (std::size_t k = 0; k < 3; ++k) {
      Follower& f = followers_[g.first + k];
      // The same polydata object (its mapper keeps it), with the larger patch's points and cells.
      f.data->ShallowCopy(shapes[k]);
      f.rgba->SetNumberOfTuples(f.data->GetNumberOfPoints());
      f.data->GetPointData()->SetScalars(f.rgba);
      f.half = g.half;
      f.snap = 5.0 * minor;
      f.shift = Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());  // re-place it
    }
  }
}

void Ground::build(const SceneSpec& scene, double L, const Eigen::Vector3d& up, double frontZ,
                   PropList& props, Problems& problems) {
  Build b{scene, L, up, frontZ, props, problems, *this};
  // Back to front: the backdrop behind everything, then the obstacles.
  if (scene.view == ViewKind::Planar) b.backdrop();
  for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
    const int idx = static_cast<int>(i);
    std::visit(
        [&](const auto& o) {
          using T = std::decay_t<decltype(o)>;
          if constexpr (std::is_same_v<T, PlaneObstacle>) b.plane(o, idx);
          if constexpr (std::is_same_v<T, CylinderObstacle>) b.cylinder(o, idx);
          if constexpr (std::is_same_v<T, DiscObstacle>) b.disc(o, idx);
        },
        scene.obstacles[i]);
  }
}

// Alpha of each vertex from its in-plane distance r to `centre`: opaque within 0.45 half,
// smoothly gone at 0.95 half.
void Ground::fade(Follower& f, const Eigen::Vector3d& centre) {
  const Eigen::Vector3d a = f.frame.block<3, 1>(0, 0), b = f.frame.block<3, 1>(0, 1);
  const Eigen::Vector3d o = f.frame.block<3, 1>(0, 3) + f.shift - centre;
  const double oa = o.dot(a), ob = f.alongB ? o.dot(b) : 0.0;
  vtkPoints* pts = f.data->GetPoints();
  for (vtkIdType i = 0; i < pts->GetNumberOfPoints(); ++i) {
    double p[3];
    pts->GetPoint(i, p);
    const double r = std::hypot(p[0] + oa, f.alongB ? p[1] + ob : 0.0) / f.half;
    const double t = std::clamp((r - 0.45) / 0.5, 0.0, 1.0);
    const double w = 1.0 - t * t * (3.0 - 2.0 * t);  // smoothstep
    const unsigned char c[4] = {f.color[0], f.color[1], f.color[2],
                                static_cast<unsigned char>(std::lround(255.0 * f.alpha * w))};
    f.rgba->SetTypedTuple(i, c);
  }
  f.rgba->Modified();
}

void Ground::recentre(const Eigen::Vector3d& tracked) {
  for (Follower& f : followers_) {
    const Eigen::Vector3d origin = f.frame.block<3, 1>(0, 3);
    const Eigen::Vector3d a = f.frame.block<3, 1>(0, 0), b = f.frame.block<3, 1>(0, 1);
    if (f.snap > 0.0) {
      const Eigen::Vector3d d = tracked - origin;
      Eigen::Vector3d shift = std::round(d.dot(a) / f.snap) * f.snap * a;
      if (f.alongB) shift += std::round(d.dot(b) / f.snap) * f.snap * b;
      if (shift != f.shift) {
        f.shift = shift;
        Eigen::Matrix4d m = f.frame;
        m.block<3, 1>(0, 3) = origin + shift;
        setMatrix(f.matrix, m);
      }
      if (f.rgba) fade(f, tracked);
    }
  }
}

}  // namespace ricochet::render::detail
