#include "core/io/body_io.hpp"

#include "core/io/json_checker.hpp"
#include "core/io/mesh_reader.hpp"
#include "core/io/scenario_io.hpp"
#include "core/model/parameter.hpp"
#include "core/se3/rigid_body.hpp"

#include <Eigen/LU>

#include <cmath>

namespace ricochet::io {

namespace {

using Vec3 = Eigen::Vector3d;

std::string quoted(const std::string& key) { return "\"" + key + "\""; }

/// Reads body and world objects; every problem goes to the scenario's JsonChecker (the first
/// one is kept, with its line and column).
class Reader {
 public:
  Reader(JsonChecker& checker, const std::filesystem::path& base) : c_(checker), base_(base) {}

  bool fail(const json::Value& at, const std::string& message) { return c_.fail(at, message); }

  const json::Value* require(const json::Value& object, const char* name, const std::string& where,
                             const std::string& what) {
    const json::Value* v = object.find(name);
    if (!v) fail(object, "missing key " + quoted(where + "." + name) + " (" + what + ")");
    return v;
  }

  bool boolean(const json::Value& v, const std::string& key, bool& out) {
    if (!v.isBool()) return fail(v, quoted(key) + " must be true or false, not " + json::typeNameWithArticle(v.type()));
    out = v.asBool();
    return true;
  }

  bool number(const json::Value& v, const std::string& key, double& out) {
    if (!c_.expectNumber(v, key, kMaxScenarioMagnitude)) return false;
    out = v.asNumber();
    return true;
  }

  /// A number > 0 (`strict`) or >= 0, with its unit in the message.
  bool bounded(const json::Value& v, const std::string& key, double& out, bool strict, const char* unit) {
    if (!number(v, key, out)) return false;
    if (strict ? out > 0.0 : out >= 0.0) return true;
    return fail(v, quoted(key) + " = " + formatNumber(out) + " must be " + (strict ? "> 0 " : ">= 0 ") + unit);
  }

  /// An array of `n` numbers (n = 2 or 3), or of 2 or 3 when `n` is 0; each > 0 when `unit`.
  bool numbers(const json::Value& v, const std::string& key, int n, Eigen::VectorXd& out,
               const char* positiveUnit = nullptr) {
    const std::string shape = n == 0 ? "2 or 3 numbers" : std::to_string(n) + " numbers";
    if (!v.isArray()) return fail(v, quoted(key) + " must be an array of " + shape + ", not " + json::typeNameWithArticle(v.type()));
    const json::Array& a = v.asArray();
    if ((n > 0 && int(a.size()) != n) || (n == 0 && a.size() != 2 && a.size() != 3)) {
      return fail(v, quoted(key) + " must be an array of " + shape + " (it has " + std::to_string(a.size()) + ")");
    }
    out.resize(Eigen::Index(a.size()));
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string k = key + "[" + std::to_string(i) + "]";
      double x = 0.0;
      if (positiveUnit ? !bounded(a[i], k, x, true, positiveUnit) : !number(a[i], k, x)) return false;
      out[Eigen::Index(i)] = x;
    }
    return true;
  }
  bool vec3(const json::Value& v, const std::string& key, Vec3& out, const char* positiveUnit = nullptr) {
    Eigen::VectorXd x;
    if (!numbers(v, key, 3, x, positiveUnit)) return false;
    out = x;
    return true;
  }

  bool node(const json::Value& v, const std::string& where, bool top, bool member, BodyNode& out,
            std::optional<double>* density) {
    if (!v.isObject()) {
      return fail(v, quoted(where) + " must be an object (a body), not " + json::typeNameWithArticle(v.type()));
    }
    const json::Value* shape = require(v, "shape", where,
                                       "one of sphere, ellipsoid, box, polyhedron, mesh, union");
    if (!shape) return false;
    if (!shape->isString()) {
      return fail(*shape, quoted(where + ".shape") + " must be a string, not " +
                              json::typeNameWithArticle(shape->type()));
    }
    const std::string& name = shape->asString();
    using S = BodyNode::Shape;
    const std::pair<const char*, S> shapes[] = {{"sphere", S::Sphere},
                                                {"ellipsoid", S::Ellipsoid}, {"box", S::Box},
                                                {"polyhedron", S::Polyhedron}, {"mesh", S::Mesh},
                                                {"union", S::Union}};
    bool known = false;
    for (const auto& [n, s] : shapes) {
      if (name == n) {
        out.shape = s;
        known = true;
      }
    }
    if (!known) {
      return fail(*shape, quoted(where + ".shape") + " = " + json::quote(name) +
                              " is not a shape: one of sphere, ellipsoid, box, polyhedron, mesh, union");
    }
    // The keys this object may have.
    std::vector<const char*> allowed = {"shape"};
    switch (out.shape) {
      case S::Sphere: allowed.push_back("radius"); break;
      case S::Ellipsoid: allowed.push_back("axes"); break;
      case S::Box: allowed.insert(allowed.end(), {"size", "epsilon"}); break;
      case S::Polyhedron: allowed.insert(allowed.end(), {"vertices", "epsilon"}); break;
      case S::Mesh: allowed.insert(allowed.end(), {"file", "md5", "epsilon"}); break;
      case S::Union: allowed.push_back("parts"); break;
    }
    if (top) allowed.push_back("density");
    if (member) allowed.insert(allowed.end(), {"position", "rotation"});
    for (const json::Member& m : v.asObject()) {
      bool ok = false;
      for (const char* a : allowed) ok = ok || m.first == a;
      if (ok) continue;
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      return fail(m.second, "unknown key " + quoted(where + "." + m.first) + " for a " + name +
                                " (expected " + list + ")");
    }
    if (const json::Value* e = v.find("epsilon")) {
      double x = 0.0;
      if (!bounded(*e, where + ".epsilon", x, false, "m")) return false;
      out.epsilon = x;
    }
    if (const json::Value* d = v.find("density")) {
      double x = 0.0;
      if (!bounded(*d, where + ".density", x, true, "kg/m^3")) return false;
      *density = x;
    }
    if (const json::Value* p = v.find("position")) {
      if (!vec3(*p, where + ".position", out.position)) return false;
    }
    if (const json::Value* r = v.find("rotation")) {
      if (!vec3(*r, where + ".rotation", out.rotation)) return false;
    }
    switch (out.shape) {
      case S::Sphere: {
        const json::Value* radius = require(v, "radius", where, "the radius, m");
        double r = 0.0;
        if (!radius || !bounded(*radius, where + ".radius", r, true, "m")) return false;
        out.size = Vec3::Constant(r);
        return true;
      }
      case S::Ellipsoid: {
        const json::Value* axes = require(v, "axes", where, "the three semi-axes, m");
        return axes && vec3(*axes, where + ".axes", out.size, "m");
      }
      case S::Box: {
        const json::Value* size = require(v, "size", where, "the three edge lengths, m");
        return size && vec3(*size, where + ".size", out.size, "m");
      }
      case S::Polyhedron: {
        const json::Value* list = require(v, "vertices", where, "[[x, y, z], ...], m");
        if (!list) return false;
        if (!list->isArray()) {
          return fail(*list, quoted(where + ".vertices") + " must be an array of [x, y, z] points");
        }
        const json::Array& a = list->asArray();
        if (a.size() < 4) {
          return fail(*list, quoted(where + ".vertices") + " has " + std::to_string(a.size()) +
                                 " points: a polyhedron needs at least 4 that do not lie in one plane");
        }
        if (a.size() > kMaxMeshVertices) {
          return fail(*list, quoted(where + ".vertices") + " has " + std::to_string(a.size()) +
                                 " points, above the limit of " + std::to_string(kMaxMeshVertices));
        }
        out.vertices.resize(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
          if (!vec3(a[i], where + ".vertices[" + std::to_string(i) + "]", out.vertices[i])) return false;
        }
        return true;
      }
      case S::Mesh: {
        const json::Value* file = require(v, "file", where, "the mesh file, relative to the scenario");
        if (!file) return false;
        if (!file->isString() || file->asString().empty()) {
          return fail(*file, quoted(where + ".file") + " must be a non-empty string (a file name)");
        }
        std::filesystem::path path(file->asString());
        if (path.is_relative() && !base_.empty()) path = base_ / path;
        path = path.lexically_normal();
        out.file = path.string();
        if (const json::Value* md5 = v.find("md5")) {
          bool hex = md5->isString() && md5->asString().size() == 32;
          for (char c : hex ? md5->asString() : std::string()) {
            hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
          }
          if (!hex) return fail(*md5, quoted(where + ".md5") + " must be 32 lowercase hexadecimal digits");
          out.md5 = md5->asString();
        }
        MeshReadResult r = readMesh(path);
        if (!r.ok()) return fail(*file, quoted(where + ".file") + ": " + r.error);
        if (!out.md5.empty() && r.mesh->md5 != out.md5) {
          return fail(*file, quoted(where + ".file") + ": " + meshLabel(path) +
                                 " changed since the scenario was saved: its MD5 is " + r.mesh->md5 +
                                 ", the scenario's \"md5\" is " + out.md5);
        }
        out.md5 = r.mesh->md5;
        out.mesh = std::move(r.mesh);
        return true;
      }
      case S::Union: {
        const json::Value* parts = require(v, "parts", where, "an array of bodies");
        if (!parts) return false;
        if (!parts->isArray() || parts->asArray().empty()) {
          return fail(*parts, quoted(where + ".parts") + " must be a non-empty array of bodies");
        }
        const json::Array& a = parts->asArray();
        out.parts.resize(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
          if (!node(a[i], where + ".parts[" + std::to_string(i) + "]", false, true, out.parts[i],
                    nullptr)) {
            return false;
          }
        }
        return true;
      }
    }
    return false;
  }

  bool world(const json::Value& v, WorldSpec& out, bool* ground) {
    if (!v.isObject()) return fail(v, std::string("\"world\" must be an object, not ") + json::typeNameWithArticle(v.type()));
    static const char* const kWorldKeys[] = {"box", "walls"};
    static const char* const kBodiesWorldKeys[] = {"box", "walls", "ground"};
    if (ground ? !c_.onlyKeys(v, kBodiesWorldKeys, "world") : !c_.onlyKeys(v, kWorldKeys, "world")) return false;
    if (const json::Value* g = ground ? v.find("ground") : nullptr) {
      if (!boolean(*g, "world.ground", *ground)) return false;
    }
    if (const json::Value* box = v.find("box")) {
      if (!box->isObject()) return fail(*box, std::string("\"world.box\" must be an object, not ") + json::typeNameWithArticle(box->type()));
      static const char* const kBoxKeys[] = {"size", "center"};
      if (!c_.onlyKeys(*box, kBoxKeys, "world.box")) return false;
      const json::Value* size = require(*box, "size", "world.box", "[Lx, Ly] or [Lx, Ly, Lz], m");
      if (!size) return false;
      Eigen::VectorXd s;
      if (!numbers(*size, "world.box.size", 0, s, "m")) return false;
      BoxWorld b;
      b.size = s.head<2>();
      b.height = s.size() == 3 ? s[2] : 0.0;
      if (const json::Value* c = box->find("center")) {
        Eigen::VectorXd x;
        if (!numbers(*c, "world.box.center", 2, x)) return false;
        b.center = x;
      }
      out.box = b;
    }
    if (const json::Value* walls = v.find("walls")) {
      if (!walls->isArray()) return fail(*walls, "\"world.walls\" must be an array of walls");
      const json::Array& a = walls->asArray();
      const int planes = int(a.size()) + (out.box ? 5 : 0);
      if (a.size() > std::size_t(kMaxWorldPlanes)) {
        return fail(*walls, "\"world.walls\" has " + std::to_string(a.size()) + " walls, at most " +
                                std::to_string(kMaxWorldPlanes) + " (" + std::to_string(planes) + " planes)");
      }
      for (std::size_t i = 0; i < a.size(); ++i) {
        const std::string key = "world.walls[" + std::to_string(i) + "]";
        if (!a[i].isObject()) return fail(a[i], quoted(key) + " must be an object {\"point\", \"normal\"}");
        static const char* const kWallKeys[] = {"point", "normal"};
        if (!c_.onlyKeys(a[i], kWallKeys, key)) return false;
        WallSpec w;
        const json::Value* point = require(a[i], "point", key, "a point of the plane, m");
        const json::Value* normal = point ? require(a[i], "normal", key, "towards the admissible side") : nullptr;
        if (!normal || !vec3(*point, key + ".point", w.point) || !vec3(*normal, key + ".normal", w.normal)) {
          return false;
        }
        if (!(w.normal.norm() > 0.0) || !std::isfinite(w.normal.norm())) {
          return fail(*normal, quoted(key + ".normal") + " has length " + formatNumber(w.normal.norm()) +
                                   ": a wall needs a non-zero normal");
        }
        out.walls.push_back(w);
      }
    }
    return true;
  }

  /// The "bodies" list of a `bodies` scenario.
  bool entries(const json::Value& v, std::vector<BodyEntry>& out) {
    if (!v.isArray() || v.asArray().empty()) {
      return fail(v, std::string("\"bodies\" must be a non-empty array of bodies, not ") +
                         (v.isArray() ? std::string("an empty array") : json::typeNameWithArticle(v.type())));
    }
    const json::Array& a = v.asArray();
    if (a.size() > std::size_t(kMaxBodies)) {
      return fail(v, "\"bodies\" has " + std::to_string(a.size()) + " bodies, at most " +
                         std::to_string(kMaxBodies));
    }
    static const char* const kEntryKeys[] = {"name",     "body",     "m",
                                             "fixed",    "position", "velocity",
                                             "rotation", "angular_momentum", "angular_velocity"};
    out.assign(a.size(), BodyEntry{});
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string where = "bodies[" + std::to_string(i) + "]";
      const json::Value& e = a[i];
      BodyEntry& b = out[i];
      if (!e.isObject()) return fail(e, quoted(where) + " must be an object (a body), not " + json::typeNameWithArticle(e.type()));
      if (!c_.onlyKeys(e, kEntryKeys, where)) return false;
      if (const json::Value* n = e.find("name")) {
        if (!n->isString()) return fail(*n, quoted(where + ".name") + " must be a string, not " + json::typeNameWithArticle(n->type()));
        b.name = n->asString();
      }
      const json::Value* body = require(e, "body", where, "its shape, e.g. {\"shape\": \"sphere\", \"radius\": 0.5}");
      if (!body || !node(*body, where + ".body", true, false, b.body, &b.density)) return false;
      if (const json::Value* f = e.find("fixed")) {
        if (!boolean(*f, where + ".fixed", b.fixed)) return false;
      }
      if (const json::Value* m = e.find("m")) {
        if (!bounded(*m, where + ".m", b.mass, true, "kg")) return false;
      }
      const std::pair<const char*, Vec3*> vectors[] = {{"position", &b.position},
                                                       {"velocity", &b.velocity},
                                                       {"rotation", &b.rotation},
                                                       {"angular_momentum", &b.angularMomentum}};
      for (const auto& [key, target] : vectors) {
        if (const json::Value* x = e.find(key)) {
          if (!vec3(*x, where + "." + key, *target)) return false;
        }
      }
      if (const json::Value* w = e.find("angular_velocity")) {
        if (e.find("angular_momentum")) {
          return fail(*w, quoted(where + ".angular_velocity") +
                              " and \"angular_momentum\" both given: give one of the two");
        }
        Vec3 omega;
        if (!vec3(*w, where + ".angular_velocity", omega)) return false;
        b.angularVelocity = omega;
      }
    }
    return true;
  }

  /// The "restitution" object of a `bodies` scenario: {"A|B": e, ...}.
  bool pairs(const json::Value& v, std::vector<PairRestitution>& out) {
    if (!v.isObject()) {
      return fail(v, std::string("\"restitution\" must be an object {\"A|B\": e, ...}, not ") +
                         json::typeNameWithArticle(v.type()));
    }
    for (const json::Member& m : v.asObject()) {
      const std::string key = "restitution." + m.first;
      const std::size_t bar = m.first.find('|');
      if (bar == std::string::npos || bar == 0 || bar + 1 == m.first.size() ||
          m.first.find('|', bar + 1) != std::string::npos) {
        return fail(m.second, quoted(key) + ": a pair is two names joined by '|' (\"A|B\" or \"A|plane\")");
      }
      PairRestitution p;
      p.first = m.first.substr(0, bar);
      p.second = m.first.substr(bar + 1);
      if (!number(m.second, key, p.e)) return false;
      if (!(p.e >= 0.0 && p.e <= 1.0)) {
        return fail(m.second, quoted(key) + " = " + formatNumber(p.e) + " must be in [0, 1]");
      }
      out.push_back(p);
    }
    return true;
  }

 private:
  JsonChecker& c_;
  std::filesystem::path base_;
};

json::Value numberArray(const Eigen::Ref<const Eigen::VectorXd>& v) {
  json::Value a = json::Value::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push(json::Value::number(v[i]));
  return a;
}

std::string relativePath(const std::string& file, const std::filesystem::path& base) {
  namespace fs = std::filesystem;
  const fs::path p(file);
  if (base.empty() || file.rfind(":/", 0) == 0) return file;  // a Qt resource keeps its name
  std::error_code ec;
  const fs::path absFile = p.is_absolute() ? p : fs::absolute(p, ec);
  const fs::path absBase = base.is_absolute() ? base : fs::absolute(base, ec);
  if (ec) return file;
  const fs::path rel = absFile.lexically_normal().lexically_relative(absBase.lexically_normal());
  return rel.empty() ? file : rel.generic_string();
}

json::Value nodeToJson(const BodyNode& n, const std::filesystem::path& base, bool member,
                       const std::optional<double>* density) {
  json::Value o = json::Value::object();
  o.add("shape", json::Value::string(shapeName(n.shape)));
  switch (n.shape) {
    case BodyNode::Shape::Sphere: o.add("radius", json::Value::number(n.size.x())); break;
    case BodyNode::Shape::Ellipsoid: o.add("axes", numberArray(n.size)); break;
    case BodyNode::Shape::Box: o.add("size", numberArray(n.size)); break;
    case BodyNode::Shape::Polyhedron: {
      json::Value a = json::Value::array();
      for (const Vec3& v : n.vertices) a.push(numberArray(v));
      o.add("vertices", std::move(a));
      break;
    }
    case BodyNode::Shape::Mesh:
      o.add("file", json::Value::string(relativePath(n.file, base)));
      o.add("md5", json::Value::string(n.mesh ? n.mesh->md5 : n.md5));
      break;
    case BodyNode::Shape::Union: {
      json::Value a = json::Value::array();
      for (const BodyNode& p : n.parts) a.push(nodeToJson(p, base, true, nullptr));
      o.add("parts", std::move(a));
      break;
    }
  }
  if (n.epsilon) o.add("epsilon", json::Value::number(*n.epsilon));
  if (density && *density) o.add("density", json::Value::number(**density));
  if (member) {
    o.add("position", numberArray(n.position));
    o.add("rotation", numberArray(n.rotation));
  }
  return o;
}

}  // namespace

bool readBody(JsonChecker& checker, const json::Value* body, const json::Value* world,
              const std::filesystem::path& baseDirectory, BodyScenario& out) {
  Reader r(checker, baseDirectory);
  if (body && !r.node(*body, "body", true, false, out.body, &out.density)) return false;
  return !world || r.world(*world, out.world, nullptr);
}

bool readBodies(JsonChecker& checker, const json::Value* bodies, const json::Value* world,
                const json::Value* restitution, const std::filesystem::path& baseDirectory,
                BodyScenario& out) {
  Reader r(checker, baseDirectory);
  if (world && !r.world(*world, out.world, &out.ground)) return false;
  if (bodies && !r.entries(*bodies, out.bodies)) return false;
  return !restitution || r.pairs(*restitution, out.restitution);
}

json::Value bodyToJson(const BodyScenario& b, const std::filesystem::path& baseDirectory) {
  return nodeToJson(b.body, baseDirectory, false, &b.density);
}

json::Value worldToJson(const WorldSpec& w, std::optional<bool> ground) {
  json::Value o = json::Value::object();
  if (ground) o.add("ground", json::Value::boolean(*ground));
  if (w.box) {
    json::Value box = json::Value::object();
    Eigen::VectorXd size(w.box->height > 0.0 ? 3 : 2);
    size.head<2>() = w.box->size;
    if (w.box->height > 0.0) size[2] = w.box->height;
    box.add("size", numberArray(size));
    box.add("center", numberArray(w.box->center));
    o.add("box", std::move(box));
  }
  if (!w.walls.empty()) {
    json::Value a = json::Value::array();
    for (const WallSpec& wall : w.walls) {
      json::Value x = json::Value::object();
      x.add("point", numberArray(wall.point));
      x.add("normal", numberArray(wall.normal));
      a.push(std::move(x));
    }
    o.add("walls", std::move(a));
  }
  return o;
}

json::Value bodiesToJson(const BodyScenario& b, const std::filesystem::path& baseDirectory) {
  json::Value a = json::Value::array();
  for (const BodyEntry& e : b.bodies) {
    json::Value o = json::Value::object();
    o.add("name", json::Value::string(e.name));
    o.add("body", nodeToJson(e.body, baseDirectory, false, &e.density));
    if (e.fixed) o.add("fixed", json::Value::boolean(true));
    if (!e.density) o.add("m", json::Value::number(e.mass));
    o.add("position", numberArray(e.position));
    o.add("velocity", numberArray(e.velocity));
    o.add("rotation", numberArray(e.rotation));
    if (e.angularVelocity) {
      o.add("angular_velocity", numberArray(*e.angularVelocity));
    } else {
      o.add("angular_momentum", numberArray(e.angularMomentum));
    }
    a.push(std::move(o));
  }
  return a;
}

json::Value restitutionToJson(const std::vector<PairRestitution>& pairs) {
  json::Value o = json::Value::object();
  for (const PairRestitution& p : pairs) o.add(p.first + "|" + p.second, json::Value::number(p.e));
  return o;
}

std::optional<Eigen::Matrix3d> angularMomentumMap(const BodyScenario& from, const BodyScenario& to,
                                                  double epsilon) {
  const se3::BuiltBody before = se3::buildBody(from, epsilon, 1.0);
  const se3::BuiltBody after = se3::buildBody(to, epsilon, 1.0);
  if (!before.ok() || !after.ok()) return std::nullopt;
  return Eigen::Matrix3d(after.J * before.J.inverse());
}

std::string meshBody(const std::filesystem::path& file, BodyNode& out) {
  MeshReadResult r = readMesh(file.lexically_normal());
  if (!r.ok()) return r.error;
  out = BodyNode{};
  out.shape = BodyNode::Shape::Mesh;
  out.file = file.lexically_normal().string();
  out.md5 = r.mesh->md5;
  out.mesh = std::move(r.mesh);
  return {};
}

}  // namespace ricochet::io
