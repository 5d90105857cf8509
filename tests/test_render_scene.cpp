// SceneView and OffscreenRenderer (render/scene/): every Shape and Obstacle kind and every
// registered system's default scene render to a non-blank frame in which the body moves with its
// pose; trail memory is bounded; switching scenes leaves nothing behind; impact marks age on the
// simulated clock; follow mode holds the body still on screen over 1000s of metres and keeps the
// floor in view of a high bounce; bad input is named, not crashed on. Frames are saved as
// build-render/render_scene_*.png for inspection.
// Needs an X display: run under xvfb-run (./test.sh does).

#include "core/model/registry.hpp"
#include "render/scene/hull_geometry.hpp"
#include "render/scene/offscreen_renderer.hpp"
#include "render/scene/scene_geometry.hpp"
#include "render/scene/scene_view.hpp"

#include <QtTest>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkImageData.h>
#include <vtkLightCollection.h>
#include <vtkMapper.h>
#include <vtkNew.h>
#include <vtkPNGReader.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPropCollection.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkRendererCollection.h>
#include <vtkWeakPointer.h>

#include <Eigen/Geometry>

#include <cmath>
#include <cstdlib>
#include <set>

using namespace ricochet;
using ricochet::render::OffscreenRenderer;
using ricochet::render::SceneView;

namespace {

constexpr int kW = 480;
constexpr int kH = 360;

struct Frame {
  std::vector<unsigned char> rgb;
  int w = kW, h = kH;
  const unsigned char* px(int x, int y) const { return rgb.data() + (static_cast<std::size_t>(y) * w + x) * 3; }
};

// Pixels whose colour differs from `other` by more than 30 (sum of |dR|+|dG|+|dB|, 0..765):
// antialiasing and gradient dithering change a few levels, an object against the background
// tens to hundreds.
int changedPixels(const Frame& a, const Frame& b) {
  int n = 0;
  for (int i = 0; i < a.w * a.h; ++i) {
    const unsigned char* p = a.rgb.data() + 3 * i;
    const unsigned char* q = b.rgb.data() + 3 * i;
    if (std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 30) ++n;
  }
  return n;
}

// Centroid (pixels, y down) of the pixels dominated by red: the test bodies are painted
// (0.85, 0.15, 0.12); shading keeps R well above G and B, while background, floors and grids are
// grey-blue (R <= B).
bool redCentroid(const Frame& f, double* cx, double* cy, int* count = nullptr) {
  double sx = 0.0, sy = 0.0;
  int n = 0;
  for (int y = 0; y < f.h; ++y) {
    for (int x = 0; x < f.w; ++x) {
      const unsigned char* p = f.px(x, y);
      if (p[0] > p[1] + 50 && p[0] > p[2] + 50) {
        sx += x;
        sy += y;
        ++n;
      }
    }
  }
  if (count) *count = n;
  if (n == 0) return false;
  *cx = sx / n;
  *cy = sy / n;
  return true;
}

const Rgb kRed{0.85f, 0.15f, 0.12f};

// Dark pixels (floor lines and hatching: mean level below 150) in the rectangle [x0, x1) x [y0, y1).
int darkPixels(const Frame& f, int x0, int x1, int y0, int y1) {
  int n = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      const unsigned char* p = f.px(x, y);
      if (p[0] + p[1] + p[2] < 3 * 150) ++n;
    }
  }
  return n;
}

// The planar particle: a red sphere of `radius` (m) over the floor y = 0.
SceneSpec particleOverFloor(double radius) {
  SceneSpec s;
  s.view = ViewKind::Planar;
  BodyPart part;
  part.shape = SphereShape{radius};
  part.color = kRed;
  s.bodies.push_back(BodySpec{"particle", {part}});
  PlaneObstacle floor;
  floor.normal = Eigen::Vector3d::UnitY();
  s.obstacles.push_back(floor);
  return s;
}

PlaneObstacle floorZ() {
  PlaneObstacle p;
  p.point = Eigen::Vector3d::Zero();
  p.normal = Eigen::Vector3d::UnitZ();
  p.halfExtent = 6.0;
  return p;
}

SceneSpec spatialScene(const Shape& shape, bool axes = true) {
  SceneSpec s;
  s.view = ViewKind::Spatial;
  BodyPart part;
  part.shape = shape;
  part.color = kRed;
  part.showAxes = axes;
  s.bodies.push_back(BodySpec{"body", {part}});
  s.obstacles.push_back(floorZ());
  s.characteristicLength = 1.0;
  return s;
}

std::vector<Eigen::Vector2d> starOutline(double tip, double inner) {
  // Four-point star: tips on the diagonals, inner vertices on the axes (non-convex).
  std::vector<Eigen::Vector2d> o;
  for (int k = 0; k < 8; ++k) {
    const double a = M_PI / 4.0 + k * M_PI / 4.0;
    const double r = (k % 2 == 0) ? tip : inner;
    o.emplace_back(r * std::cos(a), r * std::sin(a));
  }
  return o;
}

Pose at(double x, double y, double z, double angleZ = 0.0) {
  Pose p;
  p.position = Eigen::Vector3d(x, y, z);
  p.rotation = Eigen::AngleAxisd(angleZ, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return p;
}

Pose tilted(double x, double y, double z) {
  Pose p = at(x, y, z);
  p.rotation = (Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ()) *
                Eigen::AngleAxisd(0.35, Eigen::Vector3d::UnitX()))
                   .toRotationMatrix();
  return p;
}

// Sum over the renderer's props of their mapper inputs' memory (kB): what the scene holds.
unsigned long sceneMemoryKb(vtkRenderer* r) {
  unsigned long kb = 0;
  vtkPropCollection* props = r->GetViewProps();
  props->InitTraversal();
  while (vtkProp* p = props->GetNextProp()) {
    if (auto* a = vtkActor::SafeDownCast(p)) {
      if (a->GetMapper() && a->GetMapper()->GetInput()) kb += a->GetMapper()->GetInput()->GetActualMemorySize();
    }
  }
  return kb;
}

std::set<vtkProp*> propSet(vtkRenderer* r) {
  std::set<vtkProp*> s;
  vtkPropCollection* props = r->GetViewProps();
  props->InitTraversal();
  while (vtkProp* p = props->GetNextProp()) s.insert(p);
  return s;
}

// A box of half-sizes `h` as a convex hull: 8 corners, each face split into two outward
// triangles (as qhull gives a box, diagonals included).
HullShape boxHull(const Eigen::Vector3d& h, double radius) {
  HullShape hull;
  for (int i = 0; i < 8; ++i) {
    hull.vertices.emplace_back((i & 1 ? 1 : -1) * h.x(), (i & 2 ? 1 : -1) * h.y(),
                               (i & 4 ? 1 : -1) * h.z());
  }
  const int faces[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4},
                           {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
  for (const auto& f : faces) {
    std::array<int, 3> t0{f[0], f[1], f[2]}, t1{f[0], f[2], f[3]};
    const Eigen::Vector3d& a = hull.vertices[std::size_t(f[0])];
    const Eigen::Vector3d n =
        (hull.vertices[std::size_t(f[1])] - a).cross(hull.vertices[std::size_t(f[2])] - a);
    if (n.dot(a) < 0.0) {  // the face's centre lies along its outward normal for a centred box
      std::swap(t0[1], t0[2]);
      std::swap(t1[1], t1[2]);
    }
    hull.triangles.push_back(t0);
    hull.triangles.push_back(t1);
  }
  hull.roundingRadius = radius;
  return hull;
}

// The distance from `p` to the box of half-sizes `h` centred at the origin (0 inside).
double distanceToBox(const Eigen::Vector3d& p, const Eigen::Vector3d& h) {
  return (p - p.cwiseMax(-h).cwiseMin(h)).norm();
}

}  // namespace

class TestRenderScene : public QObject {
  Q_OBJECT

  std::unique_ptr<OffscreenRenderer> off_;
  vtkRenderer* renderer_ = nullptr;

  Frame render() {
    Frame f;
    off_->renderFrame(f.rgb);
    return f;
  }
  void save(const QString& name) {
    std::string err;
    const std::string path = std::string(RICOCHET_BINARY_DIR) + "/render_scene_" + name.toStdString() + ".png";
    QVERIFY2(off_->writePng(path, &err), err.c_str());
  }
  // A frame of `scene` with nothing in it but its background, for "not blank" comparisons.
  Frame backgroundOnly(ViewKind view) {
    SceneSpec empty;
    empty.view = view;
    off_->scene().setScene(empty);
    return render();
  }

  // Renders `scene` with the first body at `p0`, then at `p1`; checks the frame is not blank and
  // that the red body's pixels moved by at least `minShiftPx` on screen.
  void checkMoves(const SceneSpec& scene, const Pose& p0, const Pose& p1, const QString& name,
                  double minShiftPx) {
    const Frame bg = backgroundOnly(scene.view);
    SceneView& view = off_->scene();
    view.setScene(scene);
    QVERIFY2(view.sceneError().empty(), view.sceneError().c_str());
    view.setTrailVisible(false);
    std::vector<Pose> poses(scene.bodies.size(), p0);
    view.setPoses(poses, 0.0);
    const Frame f0 = render();
    save(name);
    // Not blank: at least 1% of the frame differs from the empty scene's. Every test body spans
    // >= 0.2 L in a view about 2.6 L tall (>= 5000 of 172800 pixels), plus its floor.
    const int changed = changedPixels(f0, bg);
    QVERIFY2(changed > kW * kH / 100, qPrintable(QString("%1: only %2 pixels differ from the empty scene").arg(name).arg(changed)));
    double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
    int n0 = 0;
    QVERIFY2(redCentroid(f0, &x0, &y0, &n0), qPrintable(name + ": body not visible"));
    poses.assign(scene.bodies.size(), p1);
    view.setPoses(poses, 0.1);
    const Frame f1 = render();
    QVERIFY2(redCentroid(f1, &x1, &y1), qPrintable(name + ": body not visible after the move"));
    const double shift = std::hypot(x1 - x0, y1 - y0);
    QVERIFY2(shift >= minShiftPx, qPrintable(QString("%1: body moved %2 px on screen").arg(name).arg(shift)));
  }

 private slots:
  void initTestCase() {
    std::string err;
    off_ = OffscreenRenderer::create(kW, kH, &err);
    QVERIFY2(off_, err.c_str());
    renderer_ = off_->renderer();
    QCOMPARE(off_->width(), kW);
    QCOMPARE(off_->height(), kH);
  }

  // ---- geometry -----------------------------------------------------------------------------

  void triangulationOfNonConvexOutlinesCoversExactlyTheArea() {
    using render::geometry::signedArea;
    using render::geometry::triangulate;
    const std::vector<std::vector<Eigen::Vector2d>> outlines = {
        starOutline(0.5, 0.2),
        {{0, 0}, {3, 0}, {3, 2}, {2, 2}, {2, 1}, {1, 1}, {1, 2}, {0, 2}},  // U shape
        {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {0, 1}},                          // collinear vertex
    };
    for (auto outline : outlines) {
      for (int reversed = 0; reversed < 2; ++reversed) {
        if (reversed) std::reverse(outline.begin(), outline.end());
        const auto tris = triangulate(outline);
        QVERIFY(!tris.empty());
        QVERIFY(tris.size() <= outline.size() - 2);
        double sum = 0.0;
        for (const auto& t : tris) {
          const double a = signedArea({outline[t[0]], outline[t[1]], outline[t[2]]});
          QVERIFY(a > 0.0);  // counter-clockwise, no folded triangles
          sum += a;
        }
        // A triangulation that spilled outside a non-convex outline would overshoot its area.
        QVERIFY(std::fabs(sum - std::fabs(signedArea(outline))) < 1e-12);
      }
    }
    QVERIFY(triangulate({{0, 0}, {1, 1}, {2, 2}}).empty());  // zero area
  }

  void roundedBoxLiesOnTheMinkowskiSurface() {
    const Eigen::Vector3d h(0.5, 0.4, 0.3);
    const double r = 0.1;
    vtkSmartPointer<vtkPolyData> pd = render::geometry::box(h, r);
    const Eigen::Vector3d inner = (h.array() - r).matrix();
    double worst = 0.0;
    for (vtkIdType i = 0; i < pd->GetNumberOfPoints(); ++i) {
      Eigen::Vector3d p;
      pd->GetPoint(i, p.data());
      const Eigen::Vector3d c = p.cwiseMax(-inner).cwiseMin(inner);
      worst = std::max(worst, std::fabs((p - c).norm() - r));  // distance to inner box == r
    }
    // Points are stored as float (what the GPU gets): 1e-6 m is float rounding at 0.5 m, while
    // a wrong mapping (e.g. plain normalisation onto an ellipsoid) errs by ~1e-2 m.
    QVERIFY2(worst < 1e-6, qPrintable(QString::number(worst)));
    QVERIFY(pd->GetNumberOfPoints() > 500);  // the rounding is actually tessellated
    // Epsilon-rounded as in the cube-plane system (1e-13): drawn as a plain box.
    QCOMPARE(render::geometry::box(h, 1e-13)->GetNumberOfPoints(), vtkIdType(24));
  }

  // The rounded hull (an epsilon-rounded die) is the hull grown by a ball: every point and every
  // triangle's centroid at the radius from the hull (a face pushed out unevenly, corner by
  // corner, brings its centroids closer), each triangle facing the way its normals say.
  void roundedHullLiesOnTheMinkowskiSurface() {
    const Eigen::Vector3d h(0.5, 0.5, 0.5);
    const double r = 0.08;
    const HullShape hull = boxHull(h, r);
    vtkSmartPointer<vtkPolyData> pd =
        render::geometry::roundedHull(hull.vertices, hull.triangles, r);
    QVERIFY(pd->GetNumberOfPolys() > 12);  // faces plus edge strips and corner patches
    vtkDataArray* normals = pd->GetPointData()->GetNormals();
    QVERIFY(normals);
    double worstPoint = 0.0, worstCentroid = 0.0, worstFacing = 1.0;
    vtkCellArray* polys = pd->GetPolys();
    polys->InitTraversal();
    vtkIdType n = 0;
    const vtkIdType* ids = nullptr;
    while (polys->GetNextCell(n, ids)) {
      QCOMPARE(n, vtkIdType(3));
      Eigen::Vector3d p[3], centroid = Eigen::Vector3d::Zero();
      for (int k = 0; k < 3; ++k) {
        pd->GetPoint(ids[k], p[k].data());
        worstPoint = std::max(worstPoint, std::fabs(distanceToBox(p[k], h) - r));
        centroid += p[k] / 3.0;
      }
      worstCentroid = std::max(worstCentroid, (r - distanceToBox(centroid, h)) / r);
      const Eigen::Vector3d geometric = (p[1] - p[0]).cross(p[2] - p[0]).normalized();
      for (int k = 0; k < 3; ++k) {
        Eigen::Vector3d shading;
        normals->GetTuple(ids[k], shading.data());
        worstFacing = std::min(worstFacing, geometric.dot(shading.normalized()));
      }
    }
    QVERIFY2(worstPoint < 1e-6, qPrintable(QString::number(worstPoint)));  // float storage
    // The arcs' chords (steps of at most 15 degrees, both ways at a corner) sag by under 2 %.
    QVERIFY2(worstCentroid < 0.02, qPrintable(QString("centroid %1 r inside").arg(worstCentroid)));
    QVERIFY2(worstFacing > 0.95, qPrintable(QString::number(worstFacing)));
    // No rounding: the plain hull.
    QCOMPARE(render::geometry::roundedHull(hull.vertices, hull.triangles, 0.0)->GetNumberOfPolys(),
             vtkIdType(12));
  }

  // The die of the "die in a box" preset (a 1 m box rounded by 0.08 m) turned every way under the
  // default camera: no face of it is near-black. A face turned from the key light and seen at a
  // grazing angle (so the head light barely reaches it either) got only the ambient term, 22 % of
  // its colour: a dark sliver along the die's edge (grey behind the box's glass walls).
  void roundedDieHasNoNearBlackFace() {
    SceneSpec s;
    s.view = ViewKind::Spatial;
    BodyPart part;
    part.shape = boxHull(Eigen::Vector3d::Constant(0.5), 0.08);
    part.color = kRed;
    s.bodies.push_back(BodySpec{"die", {part}});
    s.characteristicLength = 2.0;
    SceneView& view = off_->scene();
    view.setScene(s);
    QVERIFY2(view.sceneError().empty(), view.sceneError().c_str());
    view.setTrailVisible(false);
    int worst = 0;
    QString worstPose;
    for (int tilt = -2; tilt <= 2; ++tilt) {
      for (int deg = 0; deg < 360; deg += 10) {
        Pose p = at(0, 0, 1.0);
        p.rotation = (Eigen::AngleAxisd(deg * M_PI / 180.0, Eigen::Vector3d::UnitZ()) *
                      Eigen::AngleAxisd(0.3 * tilt, Eigen::Vector3d::UnitX()))
                         .toRotationMatrix();
        std::vector<Pose> poses{p};
        view.setPoses(poses, 0.0);
        const Frame f = render();
        // Body pixels below 30 % of the body's red (the backdrop is light, there is no floor).
        int dark = 0;
        for (int i = 0; i < f.w * f.h; ++i) {
          const unsigned char* px = f.rgb.data() + 3 * i;
          if (px[0] < 0.3 * 0.85 * 255 && px[0] >= px[1] && px[0] >= px[2]) ++dark;
        }
        if (dark > worst) {
          worst = dark;
          worstPose = QString("%1 degrees about z, tilt %2 rad").arg(deg).arg(0.3 * tilt);
          save("die_darkest");
        }
      }
    }
    QVERIFY2(worst <= 3,
             qPrintable(QString("%1 near-black body pixels at %2").arg(worst).arg(worstPose)));
  }

  // A 2 cm die thrown 0.4 m up: following it, the camera backs off to frame the motion, and the
  // floor grows with it, so that back on the ground the die stands on a floor that reaches the
  // picture's edges (not on a small disc of a few of its own sizes, in mid-air to the eye).
  void smallBodyStandsOnAFloorThatFillsTheView() {
    SceneSpec s = spatialScene(BoxShape{Eigen::Vector3d::Constant(0.01), 0.0}, false);
    s.characteristicLength = 0.04;
    std::get<PlaneObstacle>(s.obstacles.front()).halfExtent = 5.0 * 0.04;  // as rigid-body draws it
    std::get<PlaneObstacle>(s.obstacles.front()).followBody = true;
    SceneView& view = off_->scene();
    view.setScene(s);
    view.setTrailVisible(false);
    view.setFollow(true);
    std::vector<Pose> poses{at(0, 0, 0.01)};
    for (int k = 0; k <= 20; ++k) {  // up to 0.41 m and back down, drifting
      const double t = 0.58 * k / 20.0;
      poses[0] = at(0.4 * t, 0.2 * t, 0.01 + 2.8 * t - 0.5 * 9.8 * t * t);
      if (poses[0].position.z() < 0.01) poses[0].position.z() = 0.01;
      view.setPoses(poses, t);
    }
    const Frame f = render();
    save("small_body_floor");
    // The floor is a warm light grey (R >= B), the backdrop a cool blue-grey (B > R): the bottom
    // corners and the lower edges of the picture are floor.
    int floor = 0, samples = 0;
    for (int y = f.h / 2; y < f.h; y += 8) {
      for (int x : {2, f.w - 3}) {
        const unsigned char* p = f.px(x, y);
        ++samples;
        if (p[0] >= p[2]) ++floor;
      }
    }
    QVERIFY2(floor == samples,
             qPrintable(QString("%1 of %2 edge samples show the floor").arg(floor).arg(samples)));
    double cx = 0.0, cy = 0.0;
    QVERIFY(redCentroid(f, &cx, &cy));
    view.setFollow(false);
  }

  // ---- every Shape and Obstacle kind --------------------------------------------------------

  void sphereRendersAndMoves() {
    checkMoves(spatialScene(SphereShape{0.3}), at(0, 0, 0.3), at(0.6, 0, 0.3), "sphere", 20);
  }
  void ellipsoidRendersAndMoves() {
    checkMoves(spatialScene(EllipsoidShape{Eigen::Vector3d(0.5, 0.3, 0.2)}), tilted(0, 0, 0.5),
               tilted(0, 0.5, 0.7), "ellipsoid", 20);
  }
  void boxRoundedRendersAndMoves() {
    checkMoves(spatialScene(BoxShape{Eigen::Vector3d(0.35, 0.35, 0.35), 0.12}), tilted(0, 0, 0.6),
               tilted(-0.5, 0, 0.6), "box_rounded", 20);
  }
  void boxSharpRendersAndMoves() {
    checkMoves(spatialScene(BoxShape{Eigen::Vector3d(0.35, 0.35, 0.35), 1e-13}), tilted(0, 0, 0.6),
               tilted(0, 0, 1.0), "box_sharp", 20);
  }
  void cylinderRendersAndMoves() {
    Pose upright = at(0, 0, 0.5);
    upright.rotation = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitX()).toRotationMatrix();
    Pose moved = upright;
    moved.position.x() = 0.6;
    checkMoves(spatialScene(CylinderShape{0.45, 0.1}), upright, moved, "cylinder_disk", 20);
  }
  void planarStarPrismRendersAndMoves() {
    SceneSpec s;
    s.view = ViewKind::Planar;
    BodyPart part;
    part.shape = PrismShape{starOutline(0.7, 0.3), 0.2};
    part.color = kRed;
    part.showAxes = true;
    s.bodies.push_back(BodySpec{"star", {part}});
    PlaneObstacle floor;
    floor.point = Eigen::Vector3d::Zero();
    floor.normal = Eigen::Vector3d::UnitY();
    s.obstacles.push_back(floor);
    s.characteristicLength = 1.0;
    checkMoves(s, at(0, 0.9, 0, 0.3), at(0.5, 0.6, 0, 0.8), "prism_star_planar", 30);
  }
  void planarParticleOverHatchedFloor() {
    SceneSpec s = particleOverFloor(0.05);
    s.characteristicLength = 1.0;
    // Small body: 0.1 L across is ~14 px here; ask only that it is seen and moves.
    const Frame bg = backgroundOnly(ViewKind::Planar);
    SceneView& view = off_->scene();
    view.setScene(s);
    view.setTrailVisible(true);
    std::vector<Pose> poses{at(0, 1, 0)};
    view.setPoses(poses, 0.0);
    for (int i = 1; i <= 40; ++i) {  // half a parabola, to show the trail
      const double t = 0.0113 * i;
      poses[0] = at(-2.0 * t, 1.0 - 4.9 * t * t, 0);
      view.setPoses(poses, t);
    }
    view.addImpact(Eigen::Vector3d(poses[0].position.x(), 0.0, 0.0), 0.452);
    view.setPoses(poses, 0.46);
    const Frame f = render();
    save("particle_planar");
    QVERIFY(changedPixels(f, bg) > kW * kH / 100);
    double cx = 0.0, cy = 0.0;
    QVERIFY(redCentroid(f, &cx, &cy));
    // Planar camera faces the x-y plane from +z with y up, parallel projection.
    vtkCamera* cam = renderer_->GetActiveCamera();
    double dop[3], vup[3];
    cam->GetDirectionOfProjection(dop);
    cam->GetViewUp(vup);
    QVERIFY(cam->GetParallelProjection());
    QVERIFY(std::fabs(dop[2] + 1.0) < 1e-9);
    QVERIFY(std::fabs(vup[1] - 1.0) < 1e-9);
  }

  void planeObstacleCylinderAndDiscRender() {
    // A table (disc), its rim (translucent cylinder seen from outside and above), a wall (plane
    // with horizontal normal) and a rolling disk inside: all obstacle kinds at once.
    SceneSpec s;
    s.view = ViewKind::Spatial;
    BodyPart wheel;
    wheel.shape = CylinderShape{0.25, 0.06};
    wheel.color = kRed;
    wheel.showAxes = true;
    s.bodies.push_back(BodySpec{"disk", {wheel}});
    DiscObstacle table;
    table.radius = 1.2;
    CylinderObstacle rim;
    rim.radius = 1.2;
    rim.height = 0.3;
    PlaneObstacle wall;
    wall.point = Eigen::Vector3d(0, 1.4, 0);
    wall.normal = -Eigen::Vector3d::UnitY();
    wall.halfExtent = 1.5;
    wall.followBody = false;
    s.obstacles = {table, rim, wall};
    s.characteristicLength = 1.0;
    Pose upright = at(0.3, 0, 0.25);
    upright.rotation = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitX()).toRotationMatrix();
    Pose moved = upright;
    moved.position.x() = -0.4;
    checkMoves(s, upright, moved, "obstacles_table_rim_wall", 20);
    // Each obstacle kind on its own is visible (differs from the empty frame).
    for (const Obstacle& o : std::vector<Obstacle>{table, rim, wall}) {
      SceneSpec only;
      only.view = ViewKind::Spatial;
      only.obstacles = {o};
      const Frame bg = backgroundOnly(ViewKind::Spatial);
      off_->scene().setScene(only);
      QVERIFY(off_->scene().sceneError().empty());
      const Frame f = render();
      QVERIFY2(changedPixels(f, bg) > kW * kH / 100,
               qPrintable(QString("obstacle kind %1 not visible").arg(o.index())));
    }
  }

  void defaultCamerasFrameTheScene() {
    SceneView& view = off_->scene();
    view.setScene(spatialScene(SphereShape{0.3}));
    std::vector<Pose> poses{at(2, 3, 0.3)};
    view.setPoses(poses, 0.0);
    vtkCamera* cam = renderer_->GetActiveCamera();
    double focal[3], vup[3], dop[3];
    cam->GetFocalPoint(focal);
    cam->GetViewUp(vup);
    cam->GetDirectionOfProjection(dop);
    QVERIFY(!cam->GetParallelProjection());
    // Framed on the tracked body, looking down at it (3/4 view) with z up on screen.
    QVERIFY(std::hypot(focal[0] - 2, focal[1] - 3, focal[2] - 0.3) < 1e-9);
    QVERIFY(dop[2] < -0.3 && dop[2] > -0.8);
    QVERIFY(vup[2] > 0.8);
  }

  // ---- every registered system --------------------------------------------------------------

  void everyRegisteredSystemsDefaultSceneRenders() {
    if (systems().empty()) QSKIP("no system registered yet");
    for (const SystemDescription* system : systems()) {
      const QString id = QString::fromStdString(system->info().id);
      const Scenario sc = defaultScenario(*system);
      CreateResult cr = createSimulation(sc);
      QVERIFY2(cr.simulation, cr.error.c_str());
      const SceneSpec scene = system->scene(sc.parameters);
      const Frame bg = backgroundOnly(scene.view);
      SceneView& view = off_->scene();
      view.setScene(scene);
      QVERIFY2(view.sceneError().empty(), qPrintable(id + ": " + QString::fromStdString(view.sceneError())));
      view.setTrailVisible(false);
      std::vector<Pose> poses(scene.bodies.size());
      cr.simulation->poses(poses);
      view.setPoses(poses, cr.simulation->time());
      const Frame f0 = render();
      save("system_" + id);
      QVERIFY2(changedPixels(f0, bg) > kW * kH / 100, qPrintable(id + ": blank frame"));
      // Move the tracked body sideways by 0.3 L (in the screen plane for both view kinds): the
      // frame must change where the body was and is.
      std::vector<Pose> moved = poses;
      moved[scene.trackedBody].position.x() += 0.3 * scene.characteristicLength;
      view.setPoses(moved, cr.simulation->time());
      const Frame f1 = render();
      QVERIFY2(changedPixels(f0, f1) > 50, qPrintable(id + ": moving the body changed nothing"));
      // And a few simulated steps later it still renders (poses straight from the simulation).
      AdvanceResult ar = cr.simulation->advance(20, nullptr);
      QVERIFY2(ar.ok(), ar.message.c_str());
      cr.simulation->poses(poses);
      view.setPoses(poses, cr.simulation->time());
      const Frame f2 = render();
      QVERIFY(changedPixels(f2, bg) > kW * kH / 100);
      qInfo("%s: rendered", qPrintable(id));
    }
  }

  // ---- history, scene switches, marks, follow -----------------------------------------------

  void trailMemoryStaysBounded() {
    SceneView& view = off_->scene();
    view.setScene(spatialScene(SphereShape{0.2}));
    view.setTrailVisible(true);
    std::vector<Pose> poses{at(0, 0, 0.5)};
    // One turn first: the camera frames the motion and the floor grows to the view once.
    for (int i = 0; i <= 700; ++i) {
      const double t = 0.01 * i;
      poses[0] = at(std::cos(t), std::sin(t), 0.5 + 0.3 * std::sin(3 * t));
      view.setPoses(poses, t);
    }
    const unsigned long before = sceneMemoryKb(renderer_);
    for (int i = 701; i <= 20000; ++i) {  // a long run: far more samples than the trail holds
      const double t = 0.01 * i;
      poses[0] = at(std::cos(t), std::sin(t), 0.5 + 0.3 * std::sin(3 * t));
      view.setPoses(poses, t);
    }
    const unsigned long after = sceneMemoryKb(renderer_);
    QCOMPARE(after, before);  // fixed-capacity ring buffer updated in place
    const Frame f = render();
    save("trail");
    double cx = 0.0, cy = 0.0;
    int reds = 0;
    QVERIFY(redCentroid(f, &cx, &cy, &reds));
  }

  void trailFollowsThePathBetweenPoses() {
    // A snapshot at high speed spans a long stretch of the path: extendTrail() draws it through
    // the positions in between (here half a circle of radius 1 m), not the chord from the last
    // pose to this one.
    SceneView& view = off_->scene();
    auto frameOf = [&](bool withPath, bool trail) {
      view.setScene(spatialScene(SphereShape{0.15}, false));
      view.setFollow(false);
      view.setTrailVisible(trail);
      std::vector<Pose> poses{at(-1, 0, 0.5)};
      view.setPoses(poses, 0.0);
      std::vector<Eigen::Vector3d> path;
      for (int i = 1; i < 200; ++i) {
        const double a = M_PI * (1.0 - i / 200.0);
        path.emplace_back(std::cos(a), std::sin(a), 0.5);
      }
      if (withPath) view.extendTrail(path);
      poses[0] = at(1, 0, 0.5);
      view.setPoses(poses, 1.0);
      vtkCamera* camera = renderer_->GetActiveCamera();  // from above, the half circle in view
      camera->SetParallelProjection(false);
      camera->SetFocalPoint(0, 0.5, 0.5);
      camera->SetPosition(0, 0.5, 5);
      camera->SetViewUp(0, 1, 0);
      camera->SetViewAngle(40);
      renderer_->ResetCameraClippingRange();
      return render();
    };
    const Frame none = frameOf(true, false);
    const Frame arc = frameOf(true, true);
    const Frame chord = frameOf(false, true);
    // Largest colour change against the trail-less frame within 3 px of a world point's image.
    auto trailAt = [&](const Frame& f, const Eigen::Vector3d& p) {
      renderer_->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
      renderer_->WorldToDisplay();
      double d[3];
      renderer_->GetDisplayPoint(d);
      const int cx = int(std::lround(d[0])), cy = kH - 1 - int(std::lround(d[1]));
      int most = 0;
      for (int y = std::max(0, cy - 3); y <= std::min(kH - 1, cy + 3); ++y) {
        for (int x = std::max(0, cx - 3); x <= std::min(kW - 1, cx + 3); ++x) {
          const unsigned char* a = f.px(x, y);
          const unsigned char* b = none.px(x, y);
          most = std::max(most, std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]));
        }
      }
      return most;
    };
    const Eigen::Vector3d top(0, 1, 0.5), middle(0, 0, 0.5);
    QVERIFY2(trailAt(arc, top) > 60, qPrintable(QString("arc top: %1").arg(trailAt(arc, top))));
    QVERIFY2(trailAt(arc, middle) < 10, qPrintable(QString("chord middle: %1").arg(trailAt(arc, middle))));
    QVERIFY2(trailAt(chord, middle) > 60, qPrintable(QString("chord: %1").arg(trailAt(chord, middle))));
    QVERIFY2(trailAt(chord, top) < 10, qPrintable(QString("chord, arc top: %1").arg(trailAt(chord, top))));
  }

  void setSceneTwiceLeavesNoStaleActors() {
    SceneView& view = off_->scene();
    const SceneSpec a = spatialScene(SphereShape{0.3});
    SceneSpec b = spatialScene(EllipsoidShape{Eigen::Vector3d(0.4, 0.3, 0.2)});
    b.bodies.push_back(b.bodies.front());
    b.obstacles.push_back(CylinderObstacle{});
    const int lights = renderer_->GetLights()->GetNumberOfItems();
    view.setScene(a);
    const std::set<vtkProp*> propsA = propSet(renderer_);
    const auto countA = propsA.size();
    // Weak pointers: VTK may reuse an address, but a freed actor's weak pointer goes null.
    std::vector<vtkWeakPointer<vtkProp>> weakA(propsA.begin(), propsA.end());
    view.setScene(b);
    for (const auto& w : weakA) QVERIFY2(!w, "an actor of the previous scene survived");
    QVERIFY(propSet(renderer_).size() > countA);
    view.setScene(a);
    QCOMPARE(propSet(renderer_).size(), countA);
    QCOMPARE(renderer_->GetLights()->GetNumberOfItems(), lights);
  }

  void impactMarksAgeOnTheSimulatedClock() {
    SceneView& view = off_->scene();
    view.setScene(spatialScene(SphereShape{0.2}));
    view.setTrailVisible(false);
    std::vector<Pose> poses{at(0, 0, 0.6)};
    view.setPoses(poses, 10.0);
    const Frame plain = render();
    view.addImpact(Eigen::Vector3d(0.0, 0.0, 0.0), 10.0);
    view.setPoses(poses, 10.05);  // 0.05 s of simulated time later: still showing
    const Frame marked = render();
    save("impact_mark");
    QVERIFY2(changedPixels(marked, plain) > 100, "no impact mark drawn");
    view.setPoses(poses, 11.0);  // a simulated second later: gone, whatever the wall clock did
    const Frame later = render();
    QCOMPARE(changedPixels(later, plain), 0);
    // Time going backwards (a restarted run) clears marks and trail too.
    view.addImpact(Eigen::Vector3d(0.0, 0.0, 0.0), 11.0);
    view.setPoses(poses, 0.0);
    QCOMPARE(changedPixels(render(), plain), 0);
    // Non-finite contact points (systems without one report NaN) are ignored.
    view.addImpact(Eigen::Vector3d::Constant(std::nan("")), 0.0);
    view.setPoses(poses, 0.01);
    QCOMPARE(changedPixels(render(), plain), 0);
  }

  void followKeepsADriftingBodyStillOnScreen() {
    // The bouncing particle drifts ~1800 m in x over its 1000 impacts (2 m/s for 903 s).
    SceneView& view = off_->scene();
    view.setScene(particleOverFloor(0.08));
    view.setTrailVisible(false);
    view.setFollow(true);
    QVERIFY(view.follow());
    std::vector<Pose> poses{at(0, 0.5, 0)};
    view.setPoses(poses, 0.0);
    double x0 = 0.0, y0 = 0.0;
    QVERIFY(redCentroid(render(), &x0, &y0));
    double worstX = 0.0;
    for (int k = 1; k <= 8; ++k) {
      const double t = 112.9 * k;  // 8 samples up to 903 s
      const double y = 0.1 + 0.4 * std::fabs(std::sin(3.0 * t));  // bouncing, within the band
      poses[0] = at(-2.0 * t, y, 0);
      view.setPoses(poses, t);
      double x = 0.0, yy = 0.0;
      QVERIFY(redCentroid(render(), &x, &yy));
      worstX = std::max(worstX, std::fabs(x - x0));
    }
    // Horizontal follow is exact: no drift and no jitter beyond antialiasing (< 1 px).
    QVERIFY2(worstX < 1.0, qPrintable(QString("body wandered %1 px").arg(worstX)));
    save("follow_far");
    // The floor came along (its patch recentres under the body): the floor line is in the frame.
    const Frame f = render();
    QVERIFY2(darkPixels(f, 0, f.w, f.h / 2, f.h) > f.w / 2, "no floor under the body after drifting");
    view.setFollow(false);
  }

  // Follow Body with a particle dropped from 3 m (bouncing back to 3 m, drifting at 2 m/s): the
  // camera follows sideways and frames, vertically, the floor and the highest point so far, so at
  // the top of every arc as at every bounce the floor line is in the picture, under the body, and
  // the body stays off the picture's edges.
  void followKeepsTheFloorInViewOfAHighBounce() {
    SceneView& view = off_->scene();
    view.setScene(particleOverFloor(0.08));
    view.setTrailVisible(false);
    view.setFollow(true);
    std::vector<Pose> poses{at(0, 3.0, 0)};
    const double g = 9.8, fall = std::sqrt(2.0 * 3.0 / g);  // 0.78 s from the top to the floor
    for (int k = 0; k <= 16; ++k) {
      const double t = 0.125 * k;  // two bounces, tops at 0 and 2 * fall
      const double tau = std::fmod(t + fall, 2.0 * fall) - fall;
      poses[0] = at(2.0 * t, 0.08 + 3.0 - 0.5 * g * tau * tau, 0);
      view.setPoses(poses, t);
      const Frame f = render();
      double x = 0.0, y = 0.0;
      QVERIFY2(redCentroid(f, &x, &y), qPrintable(QString("no body at t = %1").arg(t)));
      QVERIFY2(y > 0.05 * f.h && y < 0.95 * f.h && x > 0.05 * f.w && x < 0.95 * f.w,
               qPrintable(QString("body at (%1, %2) px at t = %3").arg(x).arg(y).arg(t)));
      // The floor line and its hatching: a dark row across the picture, below the body.
      int floorRow = -1;
      for (int row = int(y) + 1; row < f.h && floorRow < 0; ++row) {
        if (darkPixels(f, 0, f.w, row, row + 1) > f.w / 2) floorRow = row;
      }
      QVERIFY2(floorRow > 0, qPrintable(QString("no floor in view at t = %1 (body at %2 px)").arg(t).arg(y)));
      if (k == 0) save("follow_high_bounce");
    }
    view.setFollow(false);
  }

  void renderersFxaaFlagStillAntialiases() {
    // SceneView draws through its own render pass (plain blending instead of VTK 9.1's costly
    // order-independent transparency); a host's renderer->SetUseFXAA(true) (ricochet-cli video
    // --antialiasing fxaa) must still smooth the edges, and turning it off must restore the frame.
    // Like the export, without multisampling (set before the first render): VTK 9.1's FXAA over a
    // multisampled off-screen framebuffer reads back black.
    std::string err;
    auto off = OffscreenRenderer::create(kW, kH, &err);
    QVERIFY2(off, err.c_str());
    off->renderer()->GetRenderWindow()->SetMultiSamples(0);
    SceneView& view = off->scene();
    view.setScene(spatialScene(SphereShape{0.3}, false));
    view.setTrailVisible(false);
    std::vector<Pose> poses{at(0, 0, 0.8)};
    view.setPoses(poses, 0.0);
    auto frame = [&] {
      Frame f;
      off->renderFrame(f.rgb);
      return f;
    };
    const Frame plain = frame();
    off->renderer()->SetUseFXAA(true);
    const Frame smooth = frame();
    off->renderer()->SetUseFXAA(false);
    const Frame again = frame();
    int touched = 0;  // pixels FXAA changed, along edges only
    for (int i = 0; i < kW * kH; ++i) {
      const unsigned char* p = plain.rgb.data() + 3 * i;
      const unsigned char* q = smooth.rgb.data() + 3 * i;
      if (p[0] != q[0] || p[1] != q[1] || p[2] != q[2]) ++touched;
    }
    QVERIFY2(touched > 200, qPrintable(QString("FXAA changed %1 pixels").arg(touched)));
    QVERIFY2(touched < kW * kH / 10, qPrintable(QString("FXAA changed %1 pixels").arg(touched)));
    // The same picture, smoothed: the body stays where it was (grid lines one pixel wide change
    // by tens of levels, so no pixel-count bound beyond the one above).
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    QVERIFY(redCentroid(plain, &x0, &y0));
    QVERIFY(redCentroid(smooth, &x1, &y1));
    QVERIFY2(std::hypot(x1 - x0, y1 - y0) < 0.5,
             qPrintable(QString("body moved %1 px under FXAA").arg(std::hypot(x1 - x0, y1 - y0))));
    QCOMPARE(changedPixels(again, plain), 0);
  }

  void badInputIsNamedNotCrashedOn() {
    SceneView& view = off_->scene();
    SceneSpec s = spatialScene(SphereShape{-1.0});
    s.bodies.front().parts.push_back(BodyPart{PrismShape{{{0, 0}, {1, 0}}, 0.1}, Pose{}, kRed, false});
    s.characteristicLength = std::nan("");
    view.setScene(s);
    const QString e = QString::fromStdString(view.sceneError());
    QVERIFY2(e.contains("sphere radius = -1"), qPrintable(e));
    QVERIFY2(e.contains("prism outline has 2 points"), qPrintable(e));
    QVERIFY2(e.contains("characteristicLength = nan"), qPrintable(e));
    Pose bad;
    bad.position.x() = std::nan("");
    std::vector<Pose> poses{bad};
    view.setPoses(poses, std::nan(""));
    view.setPoses({}, 0.0);  // fewer poses than bodies
    render();
  }

  void hugeFloorPatchStaysCheap() {
    // A plane drawn 100 km wide with L = 1 m must not become millions of grid vertices: the grid
    // coarsens to at most ~200 lines per direction.
    SceneSpec s = spatialScene(SphereShape{0.3});
    std::get<PlaneObstacle>(s.obstacles.front()).halfExtent = 5e4;
    off_->scene().setScene(s);
    QVERIFY(off_->scene().sceneError().empty());
    const unsigned long kb = sceneMemoryKb(renderer_);
    QVERIFY2(kb < 20000, qPrintable(QString("%1 kB").arg(kb)));
    std::vector<Pose> poses{at(0, 0, 0.3)};
    off_->scene().setPoses(poses, 0.0);
    double cx = 0.0, cy = 0.0;
    QVERIFY(redCentroid(render(), &cx, &cy));
  }

  // ---- OffscreenRenderer --------------------------------------------------------------------

  void framesComeTopRowFirst() {
    // A body above the camera's focal point lands in the upper half of the buffer.
    SceneSpec s;
    s.view = ViewKind::Planar;
    BodyPart part;
    part.shape = SphereShape{0.15};
    part.color = kRed;
    s.bodies.push_back(BodySpec{"b", {part}});
    SceneView& view = off_->scene();
    view.setScene(s);
    view.setTrailVisible(false);
    std::vector<Pose> poses{at(0, 0, 0)};
    view.setPoses(poses, 0.0);  // frames the camera on (0, 0)
    poses[0] = at(0, 0.8, 0);
    view.setPoses(poses, 0.1);
    double cx = 0.0, cy = 0.0;
    QVERIFY(redCentroid(render(), &cx, &cy));
    QVERIFY2(cy < kH / 2.0 - 50, qPrintable(QString::number(cy)));
    QVERIFY(std::fabs(cx - kW / 2.0) < 2.0);
  }

  void writePngWritesAReadableImageOrSaysWhyNot() {
    const std::string path = std::string(RICOCHET_BINARY_DIR) + "/render_scene_png_check.png";
    std::remove(path.c_str());
    std::string err;
    QVERIFY2(off_->writePng(path, &err), err.c_str());
    vtkNew<vtkPNGReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    int dims[3];
    reader->GetOutput()->GetDimensions(dims);
    QCOMPARE(dims[0], kW);
    QCOMPARE(dims[1], kH);
    QVERIFY(!off_->writePng("/nonexistent-dir/x.png", &err));
    QVERIFY2(QString::fromStdString(err).contains("/nonexistent-dir/x.png"), err.c_str());
  }

  void createWithoutADisplaySaysSo() {
    const QByteArray saved = qgetenv("DISPLAY");
    qunsetenv("DISPLAY");
    std::string err;
    auto none = OffscreenRenderer::create(64, 64, &err);
    qputenv("DISPLAY", saved);
    QVERIFY(!none);
    QVERIFY2(QString::fromStdString(err).contains("DISPLAY"), err.c_str());
    QVERIFY(!OffscreenRenderer::create(0, 64, &err));
    QVERIFY2(QString::fromStdString(err).contains("0x64"), err.c_str());
  }
};

int main(int argc, char** argv) {
  TestRenderScene tc;
  return QTest::qExec(&tc, argc, argv);
}

#include "test_render_scene.moc"
