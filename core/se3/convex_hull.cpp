#include "core/se3/convex_hull.hpp"

#include "core/model/parameter.hpp"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>

namespace ricochet::se3 {

namespace {

std::string count(std::size_t n) { return std::to_string(n) + (n == 1 ? " vertex" : " vertices"); }

/// Why the points span no solid, or empty. Relative tolerance 1e-12 of the point set's extent:
/// below it qhull's own precision handling would merge the hull flat anyway.
std::string degeneracy(std::span<const Vec3> p) {
  const std::size_t n = p.size();
  if (n < 4) return "has " + count(n) + ": a solid needs four that do not lie in one plane";
  const auto farthest = [&](auto distance) {
    std::size_t best = 0;
    double d = -1.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double di = distance(p[i]);
      if (di > d) {
        d = di;
        best = i;
      }
    }
    return std::pair{best, d};
  };
  const Vec3 p0 = p[0];
  const auto [i1, d1] = farthest([&](const Vec3& q) { return (q - p0).norm(); });
  if (!(d1 > 0.0)) return "all " + count(n) + " are the same point";
  const Vec3 axis = (p[i1] - p0) / d1;
  const auto [i2, d2] = farthest([&](const Vec3& q) { return (q - p0).cross(axis).norm(); });
  if (!(d2 > 1e-12 * d1)) return "all " + count(n) + " lie on one line";
  const Vec3 normal = axis.cross(p[i2] - p0).normalized();
  const auto [i3, d3] = farthest([&](const Vec3& q) { return std::fabs(normal.dot(q - p0)); });
  if (!(d3 > 1e-12 * d1)) {
    return "all " + count(n) + " lie in one plane: a solid needs four that do not";
  }
  return {};
}

bool lexicographicLess(const Vec3& a, const Vec3& b) {
  if (a.x() != b.x()) return a.x() < b.x();
  if (a.y() != b.y()) return a.y() < b.y();
  return a.z() < b.z();
}

/// qhull's first error line ("QH6154 qhull precision error: ..."), or a generic text.
std::string qhullMessage(const std::string& text) {
  const std::size_t at = text.find("QH");
  if (at == std::string::npos) return "qhull failed without a message";
  std::string line = text.substr(at, text.find('\n', at) - at);
  if (line.size() > 300) line = line.substr(0, 300) + "...";
  return line;
}

}  // namespace

ConvexHull convexHull(std::span<const Vec3> points) {
  ConvexHull hull;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) {
      hull.error = "vertex " + std::to_string(i + 1) + " has a non-finite coordinate (" +
                   formatNumber(points[i].x()) + ", " + formatNumber(points[i].y()) + ", " +
                   formatNumber(points[i].z()) + ")";
      return hull;
    }
  }
  if (std::string e = degeneracy(points); !e.empty()) {
    hull.error = e;
    return hull;
  }

  std::vector<coordT> coords(3 * points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (int k = 0; k < 3; ++k) coords[3 * i + std::size_t(k)] = points[i][k];
  }
  char* errText = nullptr;
  std::size_t errSize = 0;
  FILE* errFile = open_memstream(&errText, &errSize);  // qhull's messages, kept for ours
  qhT qhData;
  qhT* qh = &qhData;
  qh_zero(qh, errFile);
  char command[] = "qhull";  // default options: facets merged where coplanar within round-off
  const int exitCode = qh_new_qhull(qh, 3, int(points.size()), coords.data(), False, command,
                                    nullptr, errFile);
  std::vector<int> ids;
  std::vector<std::vector<int>> polygons;  // input indices, with qhull's outward normal sign
  if (exitCode == 0) {
    vertexT* vertex;
    vertexT** vertexp;
    facetT* facet;
    FORALLvertices { ids.push_back(qh_pointid(qh, vertex->point)); }
    FORALLfacets {
      setT* ordered = qh_facet3vertex(qh, facet);
      std::vector<int> poly;
      FOREACHvertex_(ordered) { poly.push_back(qh_pointid(qh, vertex->point)); }
      qh_settempfree(qh, &ordered);
      // Orient counter-clockwise seen from outside: Newell's normal against qhull's outward one.
      Vec3 newell = Vec3::Zero();
      for (std::size_t k = 0; k < poly.size(); ++k) {
        newell += points[std::size_t(poly[k])].cross(points[std::size_t(poly[(k + 1) % poly.size()])]);
      }
      if (newell.dot(Vec3(facet->normal[0], facet->normal[1], facet->normal[2])) < 0.0) {
        std::reverse(poly.begin(), poly.end());
      }
      polygons.push_back(std::move(poly));
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  std::fclose(errFile);
  const std::string messages = errText ? std::string(errText, errSize) : std::string();
  std::free(errText);
  if (exitCode != 0) {
    hull.error = "qhull could not build the hull: " + qhullMessage(messages);
    return hull;
  }

  // Canonical numbering: vertices sorted by coordinates.
  std::sort(ids.begin(), ids.end(), [&](int a, int b) {
    const Vec3 &pa = points[std::size_t(a)], &pb = points[std::size_t(b)];
    return lexicographicLess(pa, pb) || (pa == pb && a < b);
  });
  std::vector<int> index(points.size(), -1);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    index[std::size_t(ids[k])] = int(k);
    hull.vertices.push_back(points[std::size_t(ids[k])]);
    hull.sourceIndex.push_back(ids[k]);
  }
  hull.faces = int(polygons.size());
  for (std::vector<int>& poly : polygons) {
    for (int& v : poly) v = index[std::size_t(v)];
    std::rotate(poly.begin(), std::min_element(poly.begin(), poly.end()), poly.end());
    for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
      hull.triangles.push_back({poly[0], poly[k], poly[k + 1]});
    }
  }
  std::sort(hull.triangles.begin(), hull.triangles.end());
  return hull;
}

Adjacency adjacencyOf(int vertexCount, std::span<const std::array<int, 3>> triangles) {
  std::vector<std::vector<int>> lists(std::size_t(std::max(vertexCount, 0)));
  for (const auto& t : triangles) {
    for (int k = 0; k < 3; ++k) {
      const int a = t[std::size_t(k)], b = t[std::size_t((k + 1) % 3)];
      lists[std::size_t(a)].push_back(b);
      lists[std::size_t(b)].push_back(a);
    }
  }
  Adjacency adj;
  adj.start.push_back(0);
  for (std::vector<int>& l : lists) {
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
    adj.neighbours.insert(adj.neighbours.end(), l.begin(), l.end());
    adj.start.push_back(int(adj.neighbours.size()));
  }
  return adj;
}

}  // namespace ricochet::se3
