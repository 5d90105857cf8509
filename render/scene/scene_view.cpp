// SceneView: VTK actors for a SceneSpec. Geometry is built once per setScene(); per frame only
// actor matrices (in place), the trail ring buffer (in place) and pooled impact marks change.

#include "render/scene/scene_view.hpp"

#include "render/scene/scene_geometry.hpp"

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkFollower.h>
#include <vtkLight.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkOpenGLFXAAPass.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderStepsPass.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ricochet::render {
namespace {

using RowMajor4d = Eigen::Matrix<double, 4, 4, Eigen::RowMajor>;  // vtkMatrix4x4's layout

constexpr int kTrailCapacity = 2048;     // trail points kept (fixed: memory never grows)
constexpr double kTrailMinStep = 0.002;  // new trail point after moving this many L
constexpr int kImpactPool = 16;          // impact marks alive at once (oldest reused)
constexpr double kImpactLifetime = 0.6;  // s of simulated time a mark stays visible
constexpr double kImpactStartRadius = 0.03;  // in L
constexpr double kImpactEndRadius = 0.25;    // in L
// Heights (in L) of coplanar layers above their surface, so each wins the depth test from any
// angle: floor patch 0 < shadow < grid lines < table disc < its grid < shadow on the table.
constexpr double kShadowLift = 1e-3;
constexpr double kMaxPatch = 25.0;  // in L: largest half-size a plane patch is drawn with
constexpr double kGridLift = 2e-3;
constexpr double kDiscLift = 3e-3;
constexpr double kDiscGridLift = 4e-3;
constexpr double kDiscShadowLift = 5e-3;

bool finite(const Eigen::Vector3d& v) { return v.allFinite(); }
bool positive(double x) { return std::isfinite(x) && x > 0.0; }

std::string num(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

Eigen::Matrix4d toMatrix(const Pose& p) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = p.rotation;
  m.topRightCorner<3, 1>() = p.position;
  return m;
}

// A rigid frame whose z axis is `z` (unit), x chosen as close to `preferX` as possible.
Eigen::Matrix4d frameWithZ(const Eigen::Vector3d& origin, const Eigen::Vector3d& z,
                           const Eigen::Vector3d& preferX) {
  Eigen::Vector3d x = preferX - preferX.dot(z) * z;
  if (x.norm() < 1e-6) {
    const Eigen::Vector3d alt = std::fabs(z.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
    x = alt - alt.dot(z) * z;
  }
  x.normalize();
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<3, 1>(0, 0) = x;
  m.block<3, 1>(0, 1) = z.cross(x);
  m.block<3, 1>(0, 2) = z;
  m.block<3, 1>(0, 3) = origin;
  return m;
}

void setMatrix(vtkMatrix4x4* dst, const Eigen::Matrix4d& m) {
  const RowMajor4d r = m;
  dst->DeepCopy(r.data());  // copies 16 doubles in place and marks it modified
}

Eigen::Vector3d rgb(const Rgb& c) { return {c[0], c[1], c[2]}; }

vtkSmartPointer<vtkActor> makeActor(vtkPolyData* pd) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputData(pd);
  mapper->ScalarVisibilityOff();
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  return actor;
}

// Solid look for bodies: soft ambient, clear diffuse shading, a restrained highlight.
void bodyMaterial(vtkProperty* p, const Eigen::Vector3d& c) {
  p->SetColor(c.x(), c.y(), c.z());
  p->SetAmbient(0.22);
  p->SetDiffuse(0.85);
  p->SetSpecular(0.35);
  p->SetSpecularPower(40.0);
  p->SetSpecularColor(1.0, 1.0, 1.0);
  p->SetInterpolationToPhong();
}

// Lines that read as drawing, not as lit geometry.
void lineMaterial(vtkProperty* p, const Eigen::Vector3d& c, double width) {
  p->SetColor(c.x(), c.y(), c.z());
  p->LightingOff();
  p->SetLineWidth(static_cast<float>(width));
}

Eigen::Vector3d shapeExtent(const Shape& shape) {
  struct V {
    Eigen::Vector3d operator()(const SphereShape& s) const { return Eigen::Vector3d::Constant(s.radius); }
    Eigen::Vector3d operator()(const EllipsoidShape& s) const { return s.semiAxes; }
    Eigen::Vector3d operator()(const PrismShape& s) const {
      Eigen::Vector3d e(0.0, 0.0, 0.5 * s.depth);
      for (const auto& p : s.outline) e.head<2>() = e.head<2>().cwiseMax(p.cwiseAbs());
      return e;
    }
    Eigen::Vector3d operator()(const BoxShape& s) const { return s.halfExtents; }
    Eigen::Vector3d operator()(const CylinderShape& s) const {
      return {s.radius, s.radius, 0.5 * s.length};
    }
  };
  return std::visit(V{}, shape);
}

// Empty when the shape can be drawn; else what is wrong with which value.
std::string shapeProblem(const Shape& shape) {
  struct V {
    std::string operator()(const SphereShape& s) const {
      return positive(s.radius) ? "" : "sphere radius = " + num(s.radius) + " m is not > 0";
    }
    std::string operator()(const EllipsoidShape& s) const {
      for (int k = 0; k < 3; ++k) {
        if (!positive(s.semiAxes[k])) {
          return "ellipsoid semi-axis " + std::string(1, "xyz"[k]) + " = " + num(s.semiAxes[k]) +
                 " m is not > 0";
        }
      }
      return "";
    }
    std::string operator()(const PrismShape& s) const {
      if (!positive(s.depth)) return "prism depth = " + num(s.depth) + " m is not > 0";
      if (s.outline.size() < 3) {
        return "prism outline has " + std::to_string(s.outline.size()) + " points, needs >= 3";
      }
      for (const auto& p : s.outline) {
        if (!p.allFinite()) return "prism outline has a non-finite point";
      }
      if (geometry::triangulate(s.outline).empty()) return "prism outline has zero area";
      return "";
    }
    std::string operator()(const BoxShape& s) const {
      for (int k = 0; k < 3; ++k) {
        if (!positive(s.halfExtents[k])) {
          return "box half-extent " + std::string(1, "xyz"[k]) + " = " + num(s.halfExtents[k]) +
                 " m is not > 0";
        }
      }
      if (!std::isfinite(s.cornerRadius) || s.cornerRadius < 0.0) {
        return "box corner radius = " + num(s.cornerRadius) + " m is not >= 0";
      }
      return "";
    }
    std::string operator()(const CylinderShape& s) const {
      if (!positive(s.radius)) return "cylinder radius = " + num(s.radius) + " m is not > 0";
      if (!positive(s.length)) return "cylinder length = " + num(s.length) + " m is not > 0";
      return "";
    }
  };
  return std::visit(V{}, shape);
}

vtkSmartPointer<vtkPolyData> shapeGeometry(const Shape& shape) {
  struct V {
    vtkSmartPointer<vtkPolyData> operator()(const SphereShape& s) const { return geometry::sphere(s.radius); }
    vtkSmartPointer<vtkPolyData> operator()(const EllipsoidShape& s) const {
      return geometry::ellipsoid(s.semiAxes);
    }
    vtkSmartPointer<vtkPolyData> operator()(const PrismShape& s) const {
      return geometry::prism(s.outline, s.depth);
    }
    vtkSmartPointer<vtkPolyData> operator()(const BoxShape& s) const {
      return geometry::box(s.halfExtents, s.cornerRadius);
    }
    vtkSmartPointer<vtkPolyData> operator()(const CylinderShape& s) const {
      return geometry::cylinder(s.radius, s.length);
    }
  };
  return std::visit(V{}, shape);
}

bool validPose(const Pose& p) { return p.position.allFinite() && p.rotation.allFinite(); }

}  // namespace

struct SceneView::Impl {
  vtkRenderer* renderer;
  vtkNew<vtkLight> keyLight;   // from above the camera's right shoulder
  vtkNew<vtkLight> headLight;  // from the eye: fills what the key light leaves dark
  // The renderer's passes: plain back-to-front blending (see the constructor), and the same
  // behind FXAA when the host turns the renderer's UseFXAA on.
  vtkNew<vtkRenderStepsPass> steps;
  vtkNew<vtkOpenGLFXAAPass> fxaa;
  unsigned long passObserver = 0;
  std::vector<vtkSmartPointer<vtkProp>> props;  // everything this view added to the renderer

  SceneSpec scene;
  double L = 1.0;  // characteristic length, m
  double frontZ = 0.0;  // planar scenes: z just in front of every body (for impact marks)
  Eigen::Vector3d up = Eigen::Vector3d::UnitZ();
  std::string error;

  struct Part {
    Eigen::Matrix4d offset;
    vtkSmartPointer<vtkMatrix4x4> matrix;  // shared by the part's surface, edge and axes actors
  };
  std::vector<std::vector<Part>> bodies;

  // Something drawn on a plane (patch, grid, hatch). With `snap` > 0 it recentres under the
  // tracked body in steps of `snap` along the in-plane axes of `frame`, so its pattern stays
  // fixed in the world while the patch never runs out. Its per-vertex alpha fades it out with
  // distance from the body's foot point (exactly, not snapped), so the patch has no hard edge
  // and reads as an unbounded plane.
  struct Follower {
    Eigen::Matrix4d frame;  // columns: in-plane a, in-plane b, normal, origin
    bool alongB = true;     // planar ground: only along a
    double snap = 0.0;
    double half = 1.0;      // m, the patch half-size the fade is scaled to
    vtkSmartPointer<vtkMatrix4x4> matrix;
    vtkSmartPointer<vtkPolyData> data;
    vtkSmartPointer<vtkUnsignedCharArray> rgba;
    std::array<unsigned char, 3> color{0, 0, 0};
    double alpha = 1.0;
    Eigen::Vector3d shift = Eigen::Vector3d::Zero();  // current recentring offset, world
  };
  std::vector<Follower> followers;

  // Spatial scenes: a soft contact shadow of each body on each floor-like plane, straight below
  // the body, so heights and touch-downs read at a glance.
  struct Floor {
    Eigen::Vector3d point, normal;
    Eigen::Matrix4d frame;
    double lift;  // in L: the shadow's height above this surface
  };
  std::vector<Floor> floors;
  struct Shadow {
    int body = 0;
    int floor = 0;
    double radius = 0.0;  // m, the body's reach from its origin
    vtkSmartPointer<vtkActor> actor;
    vtkSmartPointer<vtkMatrix4x4> matrix;
  };
  std::vector<Shadow> shadows;

  // Trail: fixed ring buffer of points; segment i joins point i and i+1 (mod capacity); the
  // segment leaving the newest point and unfilled ones are fully transparent.
  vtkNew<vtkPoints> trailPoints;
  vtkNew<vtkUnsignedCharArray> trailColors;
  vtkNew<vtkPolyData> trailData;
  vtkSmartPointer<vtkActor> trailActor;
  int trailHead = -1;  // index of the newest point
  int trailCount = 0;
  bool trailVisible = true;
  std::array<unsigned char, 3> trailRgb{40, 90, 160};

  struct Mark {
    vtkSmartPointer<vtkFollower> actor;
    double start = 0.0;
    bool active = false;
  };
  std::vector<Mark> marks;
  vtkSmartPointer<vtkPolyData> ringData;

  bool follow = false;
  bool haveTracked = false;
  bool framePending = true;
  Eigen::Vector3d tracked = Eigen::Vector3d::Zero();
  double lastTime = -std::numeric_limits<double>::infinity();

  explicit Impl(vtkRenderer* r) : renderer(r) {
    trailPoints->SetDataTypeToDouble();
    trailPoints->SetNumberOfPoints(kTrailCapacity);
    for (int i = 0; i < kTrailCapacity; ++i) trailPoints->SetPoint(i, 0.0, 0.0, 0.0);
    trailColors->SetNumberOfComponents(4);
    trailColors->SetNumberOfTuples(kTrailCapacity);
    trailColors->SetName("TrailColors");
    vtkNew<vtkCellArray> segments;
    for (vtkIdType i = 0; i < kTrailCapacity; ++i) {
      const vtkIdType ids[2] = {i, (i + 1) % kTrailCapacity};
      segments->InsertNextCell(2, ids);
    }
    trailData->SetPoints(trailPoints);
    trailData->SetLines(segments);
    trailData->GetCellData()->SetScalars(trailColors);
    ringData = geometry::ring(0.62);
  }

  void add(const vtkSmartPointer<vtkProp>& prop) {
    renderer->AddViewProp(prop);
    props.push_back(prop);
  }

  void clearActors() {
    for (const auto& p : props) renderer->RemoveViewProp(p);
    props.clear();
    bodies.clear();
    followers.clear();
    floors.clear();
    shadows.clear();
    marks.clear();
  }

  void note(const std::string& problem) {
    if (!error.empty()) error += "; ";
    error += problem;
  }

  void buildBody(const BodySpec& body, int index) {
    std::vector<Part> parts;
    for (std::size_t k = 0; k < body.parts.size(); ++k) {
      const BodyPart& part = body.parts[k];
      const std::string problem = shapeProblem(part.shape);
      const std::string who = "body '" + (body.name.empty() ? std::to_string(index) : body.name) +
                              "' part " + std::to_string(k) + ": ";
      if (!problem.empty()) {
        note(who + problem + " (not drawn)");
        continue;
      }
      if (!validPose(part.offset)) {
        note(who + "offset pose is not finite (not drawn)");
        continue;
      }
      Part p{toMatrix(part.offset), vtkSmartPointer<vtkMatrix4x4>::New()};
      const Eigen::Vector3d color = rgb(part.color);
      vtkSmartPointer<vtkActor> surface = makeActor(shapeGeometry(part.shape));
      bodyMaterial(surface->GetProperty(), color);
      // Every body is a closed, opaque solid with outward faces under a rigid motion: from outside
      // its back faces are always hidden by its front ones, so they are culled instead of being
      // shaded and depth-tested (under llvmpipe the ellipsoid's back half cost ~2.5 ms a frame).
      surface->GetProperty()->BackfaceCullingOn();
      surface->SetUserMatrix(p.matrix);
      add(surface);
      // Sharp-edged solids get their feature edges drawn darker: flat faces of one colour
      // otherwise merge into a silhouette (the planar star faces the camera exactly).
      vtkSmartPointer<vtkPolyData> edgeData;
      if (const auto* prism = std::get_if<PrismShape>(&part.shape)) {
        edgeData = geometry::prismEdges(prism->outline, prism->depth);
      } else if (const auto* box = std::get_if<BoxShape>(&part.shape)) {
        if (!(box->cornerRadius > 1e-3 * box->halfExtents.minCoeff())) {
          edgeData = geometry::boxEdges(box->halfExtents);
        }
      }
      if (edgeData) {
        vtkSmartPointer<vtkActor> edges = makeActor(edgeData);
        lineMaterial(edges->GetProperty(), 0.55 * color, 2.0);
        edges->SetUserMatrix(p.matrix);
        add(edges);
      }
      if (part.showAxes) {
        const Eigen::Vector3d e = shapeExtent(part.shape);
        // Lines poke 35% out of the body; a flat prism carries them on its front face.
        Eigen::Vector3d origin = Eigen::Vector3d::Zero();
        Eigen::Vector3d lengths = 1.35 * e;
        if (std::holds_alternative<PrismShape>(part.shape)) {
          origin.z() = e.z() + 1e-3 * L;
          lengths.z() = 0.0;
        }
        vtkSmartPointer<vtkActor> axes = makeActor(geometry::axesMarkers(origin, lengths));
        axes->GetMapper()->ScalarVisibilityOn();
        static_cast<vtkPolyDataMapper*>(axes->GetMapper())->SetScalarModeToUseCellData();
        lineMaterial(axes->GetProperty(), Eigen::Vector3d::Zero(), 3.0);
        axes->SetUserMatrix(p.matrix);
        add(axes);
      }
      setMatrix(p.matrix, p.offset);  // body frame = world until the first setPoses
      parts.push_back(std::move(p));
    }
    bodies.push_back(std::move(parts));
  }

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
      followers.push_back(f);
      add(a);
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
    followers.push_back(f);
    add(a);
    return a;
  }

  // Alpha of each vertex from its in-plane distance r to `centre`: opaque within 0.45 half,
  // smoothly gone at 0.95 half.
  static void fade(Follower& f, const Eigen::Vector3d& centre) {
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

  void buildPlane(const PlaneObstacle& plane, int index) {
    const std::string who = "obstacle " + std::to_string(index) + " (plane): ";
    if (!finite(plane.point) || !finite(plane.normal) || plane.normal.norm() < 1e-12) {
      note(who + "point and normal must be finite with a non-zero normal (not drawn)");
      return;
    }
    if (!positive(plane.halfExtent)) {
      note(who + "halfExtent = " + num(plane.halfExtent) + " m is not > 0 (not drawn)");
      return;
    }
    const Eigen::Vector3d n = plane.normal.normalized();
    const Eigen::Vector3d color = rgb(plane.color);
    // Drawn with a half-size of at most kMaxPatch L: it fades out well before its edge, and VTK puts
    // the near clipping plane at ~1e-3 of the scene's depth, so a 100 km patch would clip the
    // bodies away.
    const double H = std::min(plane.halfExtent, kMaxPatch * L);
    // Grid: minor lines every ~L/2 (a nice number), major every 5 minor; the patch recentres in
    // whole major steps so both stay put in the world.
    const double minor = minorGridStep(H);
    const double major = 5.0 * minor;
    const double snap = plane.followBody ? major : 0.0;
    const int pieces = 48;  // per line / edge, for a smooth fade
    if (scene.view == ViewKind::Planar && std::fabs(n.z()) < 1e-9) {
      // Seen edge-on from +z: the classic hatched ground. Frame: x along the floor, y = normal.
      Eigen::Matrix4d f = Eigen::Matrix4d::Identity();
      f.block<3, 1>(0, 0) = Eigen::Vector3d(n.y(), -n.x(), 0.0);
      f.block<3, 1>(0, 1) = n;
      f.block<3, 1>(0, 2) = Eigen::Vector3d::UnitZ();
      f.block<3, 1>(0, 3) = plane.point;
      // Solid ground below the line (deep enough to fill any view; it hides the backdrop grid
      // there), hatched in a thin strip under the line.
      const double hatchDepth = 0.3 * minor;
      const Eigen::Vector3d band = 0.3 * color + 0.7 * Eigen::Vector3d(0.93, 0.94, 0.95);
      addFollowing(geometry::groundBand(H, 10.0 * L, pieces), f, snap, false, H, band, -1.0, false);
      vtkSmartPointer<vtkActor> hatch = addFollowing(geometry::groundHatch(H, hatchDepth, minor / 10.0, pieces),
                                                     f, snap, false, H, 0.6 * color, 1.0, false);
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
    if (n.dot(up) > 0.3) floors.push_back(Floor{plane.point, n, f, kShadowLift});
  }

  // About L/2, but never more than ~200 lines across a patch of half-size `half` (memory, and
  // the per-frame fade, grow with the line count).
  double minorGridStep(double half) const {
    return std::max(geometry::niceStep(L / 2.0), geometry::niceStep(half / 100.0));
  }

  // Planar scenes: faint graph paper behind the bodies (minor/major lines as on the floors), so
  // heights and drift read against a fixed world grid; it follows the body like a floor patch.
  void buildBackdrop() {
    double half = 10.0 * L;
    for (const Obstacle& o : scene.obstacles) {
      if (const auto* pl = std::get_if<PlaneObstacle>(&o)) {
        if (positive(pl->halfExtent)) half = std::max(half, std::min(pl->halfExtent, kMaxPatch * L));
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

  void buildCylinder(const CylinderObstacle& c, int index) {
    const std::string who = "obstacle " + std::to_string(index) + " (cylinder): ";
    if (!finite(c.base) || !finite(c.axis) || c.axis.norm() < 1e-12 || !positive(c.radius) ||
        !positive(c.height)) {
      note(who + "needs a finite base, a non-zero axis, radius > 0 and height > 0 (radius = " +
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
    add(wall);
    vtkSmartPointer<vtkActor> rims = makeActor(geometry::tubeOutline(c.radius, c.height, 12));
    lineMaterial(rims->GetProperty(), 0.6 * color, 1.5);
    rims->GetProperty()->SetOpacity(0.8);
    rims->SetUserMatrix(m);
    add(rims);
  }

  void buildDisc(const DiscObstacle& disc, int index) {
    const std::string who = "obstacle " + std::to_string(index) + " (disc): ";
    if (!finite(disc.center) || !finite(disc.normal) || disc.normal.norm() < 1e-12 ||
        !positive(disc.radius)) {
      note(who + "needs a finite centre, a non-zero normal and radius > 0 (radius = " +
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
    add(top);
    Eigen::Matrix4d lifted = f0;
    lifted.block<3, 1>(0, 3) += kDiscGridLift * L * n;
    vtkNew<vtkMatrix4x4> ml;
    setMatrix(ml, lifted);
    vtkSmartPointer<vtkActor> grid =
        makeActor(geometry::polarGrid(disc.radius, geometry::niceStep(disc.radius / 4.0), 12));
    lineMaterial(grid->GetProperty(), 0.75 * color, 1.2);
    grid->SetUserMatrix(ml);
    add(grid);
    if (n.dot(up) > 0.3) floors.push_back(Floor{disc.center, n, f0, kDiscShadowLift});
  }

  void buildShadows() {
    if (scene.view != ViewKind::Spatial || floors.empty()) return;
    vtkSmartPointer<vtkPolyData> disc = geometry::shadowDisc();
    for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
      double reach = 0.0;
      for (const BodyPart& part : scene.bodies[b].parts) {
        if (!shapeProblem(part.shape).empty() || !validPose(part.offset)) continue;
        const Eigen::Vector3d e = shapeExtent(part.shape);
        reach = std::max(reach, part.offset.position.norm() + e.maxCoeff());
      }
      if (!(reach > 0.0)) continue;
      for (std::size_t k = 0; k < floors.size(); ++k) {
        vtkNew<vtkPolyDataMapper> mapper;
        mapper->SetInputData(disc);
        mapper->SetColorModeToDirectScalars();
        mapper->ScalarVisibilityOn();
        auto actor = vtkSmartPointer<vtkActor>::New();
        actor->SetMapper(mapper);
        actor->GetProperty()->LightingOff();
        actor->VisibilityOff();  // until the body has a pose
        Shadow sh{static_cast<int>(b), static_cast<int>(k), reach, actor,
                  vtkSmartPointer<vtkMatrix4x4>::New()};
        actor->SetUserMatrix(sh.matrix);
        add(actor);
        shadows.push_back(sh);
      }
    }
  }

  void updateShadow(Shadow& sh, const Eigen::Vector3d& p) {
    const Floor& f = floors[sh.floor];
    const double h = (p - f.point).dot(f.normal);
    if (!(h > -0.5 * sh.radius)) {  // under this plane (e.g. a wall behind): no shadow on it
      sh.actor->VisibilityOff();
      return;
    }
    // Wider and fainter with the body's clearance above the plane; 0.55 opacity when resting.
    // Below 0.06 it would not be seen, yet a wide translucent disc still costs its blended
    // pixels every frame under a software renderer (~3 ms for a high ellipsoid's): not drawn.
    const double clearance = std::max(0.0, h - sh.radius);
    const double opacity = 0.55 / (1.0 + 1.5 * clearance / sh.radius);
    if (opacity < 0.06) {
      sh.actor->VisibilityOff();
      return;
    }
    const double s = 0.9 * sh.radius * (1.0 + std::min(1.5, 0.6 * clearance / sh.radius));
    Eigen::Matrix4d m = f.frame;
    m.block<3, 3>(0, 0) *= s;
    m.block<3, 1>(0, 3) = p - h * f.normal + f.lift * L * f.normal;
    setMatrix(sh.matrix, m);
    sh.actor->GetProperty()->SetOpacity(opacity);
    sh.actor->VisibilityOn();
  }

  void buildTrail() {
    vtkSmartPointer<vtkActor> a = makeActor(trailData);
    auto* mapper = static_cast<vtkPolyDataMapper*>(a->GetMapper());
    mapper->ScalarVisibilityOn();
    mapper->SetScalarModeToUseCellData();
    mapper->SetColorModeToDirectScalars();
    a->GetProperty()->LightingOff();
    a->GetProperty()->SetLineWidth(2.5f);
    a->SetVisibility(trailVisible);
    trailActor = a;
    add(a);
  }

  void buildMarks() {
    for (int i = 0; i < kImpactPool; ++i) {
      vtkNew<vtkPolyDataMapper> mapper;
      mapper->SetInputData(ringData);
      mapper->ScalarVisibilityOff();
      auto f = vtkSmartPointer<vtkFollower>::New();
      f->SetMapper(mapper);
      f->SetCamera(renderer->GetActiveCamera());
      f->GetProperty()->SetColor(0.95, 0.33, 0.12);
      f->GetProperty()->LightingOff();
      f->VisibilityOff();
      marks.push_back(Mark{f, 0.0, false});
      add(f);
    }
  }

  void resetTrail() {
    trailHead = -1;
    trailCount = 0;
    for (vtkIdType i = 0; i < kTrailCapacity; ++i) trailColors->SetTypedTuple(i, zeroColor());
    trailColors->Modified();
  }
  static const unsigned char* zeroColor() {
    static const unsigned char z[4] = {0, 0, 0, 0};
    return z;
  }

  void extendTrail(const Eigen::Vector3d& p) {
    if (addTrailPoint(p)) colourTrail();
  }

  // Appends p to the trail's ring (not yet recoloured); false when it is too close to the last.
  bool addTrailPoint(const Eigen::Vector3d& p) {
    if (!p.allFinite()) return false;
    if (trailHead >= 0) {
      Eigen::Vector3d last;
      trailPoints->GetPoint(trailHead, last.data());
      if ((p - last).norm() < kTrailMinStep * L) return false;
    }
    if (trailHead < 0) {
      // Park the unused slots on the first point: invisible either way, but they then add
      // nothing to the scene bounds VTK derives the camera clipping range from.
      for (int i = 0; i < kTrailCapacity; ++i) trailPoints->SetPoint(i, p.data());
    }
    trailHead = (trailHead + 1) % kTrailCapacity;
    trailCount = std::min(trailCount + 1, kTrailCapacity);
    trailPoints->SetPoint(trailHead, p.data());
    trailPoints->Modified();
    return true;
  }

  void colourTrail() {
    // Segment j joins j and j+1; it is as old as point j. Opacity falls off with age.
    for (int age = 0; age < kTrailCapacity; ++age) {
      const int j = (trailHead - age + kTrailCapacity) % kTrailCapacity;
      unsigned char c[4] = {trailRgb[0], trailRgb[1], trailRgb[2], 0};
      if (age >= 1 && age < trailCount) {
        const double s = 1.0 - static_cast<double>(age) / kTrailCapacity;
        c[3] = static_cast<unsigned char>(std::lround(220.0 * s * s));
      }
      trailColors->SetTypedTuple(j, c);
    }
    trailColors->Modified();
  }

  void ageMarks(double time) {
    for (Mark& m : marks) {
      if (!m.active) continue;
      const double age = time - m.start;
      if (age < 0.0 || age > kImpactLifetime) {
        m.active = false;
        m.actor->VisibilityOff();
        continue;
      }
      styleMark(m, age / kImpactLifetime);
    }
  }

  void styleMark(Mark& m, double u) {
    // Expands quickly then slows (sqrt), fades out quadratically.
    const double r = L * (kImpactStartRadius + (kImpactEndRadius - kImpactStartRadius) * std::sqrt(u));
    m.actor->SetScale(r, r, r);
    m.actor->GetProperty()->SetOpacity((1.0 - u) * (1.0 - u));
    m.actor->VisibilityOn();
  }

  void recentreFollowers() {
    for (Follower& f : followers) {
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

  double viewHalfHeight(vtkCamera* cam) const {
    if (cam->GetParallelProjection()) return cam->GetParallelScale();
    return cam->GetDistance() * std::tan(0.5 * cam->GetViewAngle() * 3.14159265358979323846 / 180.0);
  }

  // What the default view must show: the tracked body (with its reach), where it meets the
  // obstacles near it (foot point on a floor, nearest point of a wall) and the whole of a
  // cylinder or table it moves in. Far-off obstacles (> 10 L) are left out of the frame.
  void regionOfInterest(Eigen::Vector3d* lo, Eigen::Vector3d* hi) const {
    const Eigen::Vector3d c = haveTracked ? tracked : Eigen::Vector3d::Zero();
    double reach = 0.0;
    if (scene.trackedBody < static_cast<int>(scene.bodies.size())) {
      for (const BodyPart& part : scene.bodies[scene.trackedBody].parts) {
        if (shapeProblem(part.shape).empty() && validPose(part.offset)) {
          reach = std::max(reach, part.offset.position.norm() + shapeExtent(part.shape).maxCoeff());
        }
      }
    }
    reach = std::max(reach, 0.25 * L);
    *lo = c - Eigen::Vector3d::Constant(reach);
    *hi = c + Eigen::Vector3d::Constant(reach);
    auto include = [&](const Eigen::Vector3d& p) {
      if (!p.allFinite() || (p - c).norm() > 10.0 * L) return;
      *lo = lo->cwiseMin(p);
      *hi = hi->cwiseMax(p);
    };
    for (const Obstacle& o : scene.obstacles) {
      if (const auto* pl = std::get_if<PlaneObstacle>(&o)) {
        const Eigen::Vector3d n = pl->normal.normalized();
        const Eigen::Vector3d foot = c - (c - pl->point).dot(n) * n;
        include(foot);
        if (scene.view == ViewKind::Planar) include(foot - 0.3 * L * n);  // the hatched band
      } else if (const auto* cy = std::get_if<CylinderObstacle>(&o)) {
        const Eigen::Vector3d ax = cy->axis.normalized();
        for (double t : {0.0, cy->height}) {
          const Eigen::Vector3d centre = cy->base + t * ax;
          include(centre - Eigen::Vector3d::Constant(cy->radius));
          include(centre + Eigen::Vector3d::Constant(cy->radius));
        }
      } else if (const auto* di = std::get_if<DiscObstacle>(&o)) {
        include(di->center - Eigen::Vector3d::Constant(di->radius));
        include(di->center + Eigen::Vector3d::Constant(di->radius));
      }
    }
    if (scene.view == ViewKind::Planar) {
      lo->z() = 0.0;
      hi->z() = 0.0;
    }
  }

  // Width over height of the viewport, 4:3 until the renderer has a size.
  double aspect() const {
    const int* size = renderer->GetRenderWindow() ? renderer->GetSize() : nullptr;
    if (!size || size[0] <= 0 || size[1] <= 0) return 4.0 / 3.0;
    return static_cast<double>(size[0]) / size[1];
  }

  void frameCamera() {
    vtkCamera* cam = renderer->GetActiveCamera();
    Eigen::Vector3d lo, hi;
    regionOfInterest(&lo, &hi);
    const Eigen::Vector3d c = 0.5 * (lo + hi);
    const double ar = aspect();
    if (scene.view == ViewKind::Planar) {
      // Half-height: the region's, or its half-width over the aspect ratio, plus a 30% margin;
      // at least 1.3 L so small bodies are not blown up.
      const Eigen::Vector3d e = 0.5 * (hi - lo);
      const double halfHeight = std::max({1.3 * e.y(), 1.3 * e.x() / ar, 1.3 * L});
      cam->ParallelProjectionOn();
      cam->SetFocalPoint(c.x(), c.y(), 0.0);
      cam->SetPosition(c.x(), c.y(), 20.0 * L + 10.0 * halfHeight);
      cam->SetViewUp(0.0, 1.0, 0.0);
      cam->SetParallelScale(halfHeight);
    } else {
      cam->ParallelProjectionOff();
      cam->SetViewAngle(30.0);
      // A 3/4 view from the front right and above (azimuth ~30 deg off -y, elevation ~27 deg),
      // backed off until every corner of the region is inside 85% of the 30 degree (vertical)
      // field of view, and of the horizontal one the aspect ratio gives.
      const Eigen::Vector3d dir = Eigen::Vector3d(0.5, -0.87, 0.5).normalized();  // to the eye
      const Eigen::Vector3d right = Eigen::Vector3d::UnitZ().cross(dir).normalized();
      const Eigen::Vector3d screenUp = dir.cross(right);
      const double tanHalf = 0.85 * std::tan(15.0 * 3.14159265358979323846 / 180.0);
      double distance = 2.0 * L;
      for (int k = 0; k < 8; ++k) {
        const Eigen::Vector3d corner((k & 1) ? hi.x() : lo.x(), (k & 2) ? hi.y() : lo.y(),
                                     (k & 4) ? hi.z() : lo.z());
        const Eigen::Vector3d v = corner - c;
        const double lateral = std::max(std::fabs(v.dot(right)) / ar, std::fabs(v.dot(screenUp)));
        distance = std::max(distance, v.dot(dir) + lateral / tanHalf);
      }
      const Eigen::Vector3d eye = c + distance * dir;
      cam->SetFocalPoint(c.x(), c.y(), c.z());
      cam->SetPosition(eye.x(), eye.y(), eye.z());
      cam->SetViewUp(0.0, 0.0, 1.0);
    }
    cam->OrthogonalizeViewUp();
    renderer->ResetCameraClippingRange();
  }

  // Follow: the tracked body keeps its place on screen sideways (exact, so no lag and no
  // jitter), while vertically the camera moves only when the body leaves a central band, so
  // bounces do not shake the floor.
  void followCamera() {
    vtkCamera* cam = renderer->GetActiveCamera();
    Eigen::Vector3d focal, eye;
    cam->GetFocalPoint(focal.data());
    cam->GetPosition(eye.data());
    const Eigen::Vector3d d = tracked - focal;
    const double v = d.dot(up);
    const double band = 0.45 * viewHalfHeight(cam);
    const double excess = v - std::clamp(v, -band, band);
    Eigen::Vector3d shift = d - v * up + excess * up;
    if (scene.view == ViewKind::Planar) shift.z() = 0.0;
    if (shift.squaredNorm() == 0.0) return;
    focal += shift;
    eye += shift;
    cam->SetFocalPoint(focal.data());
    cam->SetPosition(eye.data());
  }
};

SceneView::SceneView(vtkRenderer* renderer) : d(std::make_unique<Impl>(renderer)) {
  renderer->GradientBackgroundOn();
  renderer->SetBackground(0.80, 0.84, 0.89);   // bottom
  renderer->SetBackground2(0.97, 0.98, 0.99);  // top
  renderer->SetTwoSidedLighting(true);
  // Translucency by plain alpha blending, props back to front in the order they were added
  // (setScene adds the backdrop first, then obstacles, then bodies). VTK 9.1's default without
  // depth peeling is order-independent transparency: two float framebuffers and a full-screen
  // composite on every frame with any translucent prop, ~14 ms of a 38 ms frame under llvmpipe
  // (bench/gui: ricochet-scene-bench). Depth peeling is costlier still, and with multisampling
  // VTK 9.1 on Mesa drew no translucent geometry at all. The few translucent things here (floor
  // fade, cylinder wall, trail, impact marks, shadows) rarely overlap each other.
  d->fxaa->SetDelegatePass(d->steps);
  renderer->SetPass(d->steps);
  // A renderer with a pass ignores its own UseFXAA flag: keep the flag meaningful for hosts
  // (the export's --antialiasing fxaa sets it) by picking the pass at the start of each render.
  vtkNew<vtkCallbackCommand> pick;
  pick->SetClientData(d.get());
  pick->SetCallback([](vtkObject* caller, unsigned long, void* client, void*) {
    auto* r = static_cast<vtkRenderer*>(caller);
    auto* impl = static_cast<Impl*>(client);
    vtkRenderPass* want = r->GetUseFXAA() ? static_cast<vtkRenderPass*>(impl->fxaa)
                                          : static_cast<vtkRenderPass*>(impl->steps);
    if (r->GetPass() != want) r->SetPass(want);
  });
  d->passObserver = renderer->AddObserver(vtkCommand::StartEvent, pick);
  // Near plane at 1e-4 of the scene depth (VTK's default is 1e-3 with a 24-bit depth buffer):
  // long trails and large floors deepen the scene, and the bodies must not be clipped.
  renderer->SetNearClippingPlaneTolerance(1e-4);
  // Two camera lights instead of VTK's five-light kit: under llvmpipe every light is paid per
  // lit pixel (5 -> 2 lights saved ~2 ms per frame on ellipsoid-plane), and a key light plus a
  // head light already model the bodies clearly. Key: elevation 50, azimuth 10 degrees, as in
  // vtkLightKit.
  d->keyLight->SetLightTypeToCameraLight();
  d->keyLight->SetDirectionAngle(50.0, 10.0);
  d->keyLight->SetColor(1.0, 0.98, 0.95);
  d->keyLight->SetIntensity(0.8);
  d->headLight->SetLightTypeToHeadlight();
  d->headLight->SetColor(0.95, 0.97, 1.0);
  d->headLight->SetIntensity(0.55);
  renderer->AddLight(d->keyLight);
  renderer->AddLight(d->headLight);
}

SceneView::~SceneView() {
  d->clearActors();
  d->renderer->RemoveLight(d->keyLight);
  d->renderer->RemoveLight(d->headLight);
  // The pass stays on the renderer (it holds its own reference): the host's Finalize() then
  // releases its GL objects while their context is current.
  d->renderer->RemoveObserver(d->passObserver);
}

void SceneView::setScene(const SceneSpec& scene) {
  d->clearActors();
  d->scene = scene;
  d->error.clear();
  d->L = scene.characteristicLength;
  if (!positive(d->L)) {
    d->note("characteristicLength = " + num(d->L) + " m is not > 0 (using 1 m)");
    d->L = 1.0;
  }
  d->up = scene.view == ViewKind::Planar ? Eigen::Vector3d::UnitY() : Eigen::Vector3d::UnitZ();
  if (scene.trackedBody < 0 || scene.trackedBody >= static_cast<int>(scene.bodies.size())) {
    if (!scene.bodies.empty()) {
      d->note("trackedBody = " + std::to_string(scene.trackedBody) + " is not a body index (using 0)");
    }
    d->scene.trackedBody = 0;
  }
  d->frontZ = 0.0;
  for (const BodySpec& body : scene.bodies) {
    for (const BodyPart& part : body.parts) {
      if (shapeProblem(part.shape).empty() && validPose(part.offset)) {
        d->frontZ = std::max(d->frontZ, part.offset.position.z() + shapeExtent(part.shape).norm());
      }
    }
  }
  d->frontZ += 0.01 * d->L;
  // Back to front: translucent props are blended in the order they were added (no depth
  // peeling, see the constructor), so the backdrop goes first, then obstacles, then bodies.
  if (scene.view == ViewKind::Planar) d->buildBackdrop();
  for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
    const int idx = static_cast<int>(i);
    std::visit(
        [&](const auto& o) {
          using T = std::decay_t<decltype(o)>;
          if constexpr (std::is_same_v<T, PlaneObstacle>) d->buildPlane(o, idx);
          if constexpr (std::is_same_v<T, CylinderObstacle>) d->buildCylinder(o, idx);
          if constexpr (std::is_same_v<T, DiscObstacle>) d->buildDisc(o, idx);
        },
        scene.obstacles[i]);
  }
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) d->buildBody(scene.bodies[i], static_cast<int>(i));
  // Trail in the tracked body's colour, a little deeper so it reads on the light background.
  if (!scene.bodies.empty() && !scene.bodies[d->scene.trackedBody].parts.empty()) {
    const Rgb c = scene.bodies[d->scene.trackedBody].parts.front().color;
    for (int k = 0; k < 3; ++k) d->trailRgb[k] = static_cast<unsigned char>(std::lround(255.0 * 0.8 * c[k]));
  }
  d->buildShadows();
  d->buildTrail();
  d->buildMarks();
  d->resetTrail();
  d->haveTracked = false;
  d->lastTime = -std::numeric_limits<double>::infinity();
  resetCamera();
}

void SceneView::setPoses(std::span<const Pose> poses, double time) {
  const std::size_t n = std::min(poses.size(), d->bodies.size());
  for (std::size_t b = 0; b < n; ++b) {
    if (!validPose(poses[b])) continue;  // keep the last good pose on screen
    const Eigen::Matrix4d body = toMatrix(poses[b]);
    for (Impl::Part& part : d->bodies[b]) setMatrix(part.matrix, body * part.offset);
  }
  for (Impl::Shadow& sh : d->shadows) {
    if (static_cast<std::size_t>(sh.body) < n && validPose(poses[sh.body])) {
      d->updateShadow(sh, poses[sh.body].position);
    }
  }
  if (std::isfinite(time) && time < d->lastTime) clearHistory();  // the run restarted
  if (std::isfinite(time)) d->lastTime = time;

  const std::size_t t = static_cast<std::size_t>(d->scene.trackedBody);
  if (t < poses.size() && validPose(poses[t])) {
    d->tracked = poses[t].position;
    d->haveTracked = true;
    d->extendTrail(d->tracked);
    d->recentreFollowers();
    if (d->framePending) {
      d->framePending = false;
      d->frameCamera();
    } else if (d->follow) {
      d->followCamera();
    }
  }
  if (std::isfinite(time)) d->ageMarks(time);
  d->renderer->ResetCameraClippingRange();
}

void SceneView::extendTrail(std::span<const Eigen::Vector3d> path) {
  if (d->bodies.empty()) return;  // no scene: no trail
  bool added = false;
  for (const Eigen::Vector3d& p : path) added = d->addTrailPoint(p) || added;
  if (added) d->colourTrail();  // once for the whole path: a recolour touches every segment
}

void SceneView::addImpact(const Eigen::Vector3d& point, double time) {
  if (!point.allFinite() || !std::isfinite(time) || d->marks.empty()) return;
  Impl::Mark* slot = nullptr;
  for (Impl::Mark& m : d->marks) {
    if (!m.active) {
      slot = &m;
      break;
    }
    if (!slot || m.start < slot->start) slot = &m;  // all busy: reuse the oldest
  }
  slot->active = true;
  slot->start = time;
  Eigen::Vector3d p = point;
  // Planar scenes: in front of the bodies' mid-plane so the ring is not hidden inside a prism.
  if (d->scene.view == ViewKind::Planar) p.z() = d->frontZ;
  slot->actor->SetPosition(p.data());
  slot->actor->SetCamera(d->renderer->GetActiveCamera());  // the host may have swapped cameras
  d->styleMark(*slot, 0.0);
}

void SceneView::clearHistory() {
  d->resetTrail();
  for (Impl::Mark& m : d->marks) {
    m.active = false;
    m.actor->VisibilityOff();
  }
  d->lastTime = -std::numeric_limits<double>::infinity();
}

void SceneView::resetCamera() {
  d->frameCamera();
  d->framePending = !d->haveTracked;  // frame on the body as soon as its pose is known
}

void SceneView::setFollow(bool follow) { d->follow = follow; }

bool SceneView::follow() const { return d->follow; }

void SceneView::setTrailVisible(bool visible) {
  d->trailVisible = visible;
  if (d->trailActor) d->trailActor->SetVisibility(visible);
}

const std::string& SceneView::sceneError() const { return d->error; }

}  // namespace ricochet::render
