#include "mesh/vtk_mesh_reader.hpp"

#include <vtkAbstractPolyDataReader.h>
#include <vtkCallbackCommand.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCommand.h>
#include <vtkDataArray.h>
#include <vtkExecutive.h>
#include <vtkNew.h>
#include <vtkOBJReader.h>
#include <vtkPLYReader.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSTLReader.h>
#include <vtkSmartPointer.h>
#include <vtksys/MD5.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

namespace ricochet::mesh {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string md5Hex(const std::string& bytes) {
  vtksysMD5* md5 = vtksysMD5_New();
  vtksysMD5_Initialize(md5);
  constexpr std::size_t kChunk = std::size_t(1) << 30;
  for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
    const std::size_t n = std::min(kChunk, bytes.size() - at);
    vtksysMD5_Append(md5, reinterpret_cast<const unsigned char*>(bytes.data() + at), int(n));
  }
  char hex[32];
  vtksysMD5_FinalizeHex(md5, hex);
  vtksysMD5_Delete(md5);
  return std::string(hex, 32);
}

/// Catches the first error a VTK object reports (instead of VTK printing it).
struct ErrorCatcher {
  std::string first;
  static void onError(vtkObject*, unsigned long, void* self, void* text) {
    auto* c = static_cast<ErrorCatcher*>(self);
    if (c->first.empty() && text) c->first = static_cast<const char*>(text);
  }
};

/// The readable part of a VTK error text: its last line, after the "vtkXReader (0x...): " prefix.
std::string vtkMessage(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  if (const auto nl = text.rfind('\n'); nl != std::string::npos) text = text.substr(nl + 1);
  if (const auto p = text.find("): "); p != std::string::npos && p < 60) text = text.substr(p + 3);
  if (text.size() > 240) text = text.substr(0, 240) + "...";
  return text;
}

/// The vertex count a PLY header declares ("element vertex N"), or -1.
long long plyVertexCount(const std::string& bytes) {
  const std::size_t end = bytes.find("end_header");
  std::istringstream header(bytes.substr(0, std::min(end, std::size_t(1) << 16)));
  std::string line;
  while (std::getline(header, line)) {
    std::istringstream words(line);
    std::string element, name;
    long long n = -1;
    if (words >> element >> name >> n && element == "element" && name == "vertex") return n;
  }
  return -1;
}

/// OBJ faces in file order, each with the index of its object/group (first appearance order).
struct ObjGroups {
  std::vector<int> faceGroup;
  std::vector<std::string> names;
};
ObjGroups objGroups(const std::string& bytes) {
  ObjGroups g;
  std::map<std::string, int> index;
  std::string object, group;
  std::size_t at = 0;
  while (at < bytes.size()) {
    std::size_t end = bytes.find('\n', at);
    if (end == std::string::npos) end = bytes.size();
    std::string_view line(bytes.data() + at, end - at);
    at = end + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
    if (line.size() < 2 || !(line[1] == ' ' || line[1] == '\t')) {
      if (line == "o") object.clear();
      if (line == "g") group.clear();
      continue;
    }
    std::string_view rest = line.substr(2);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    if (line[0] == 'o') object = std::string(rest);
    if (line[0] == 'g') group = std::string(rest);
    if (line[0] != 'f') continue;
    const std::string key = object.empty() || group.empty() ? object + group : object + "/" + group;
    const auto it = index.emplace(key, int(g.names.size())).first;
    if (it->second == int(g.names.size())) g.names.push_back(key);
    g.faceGroup.push_back(it->second);
  }
  return g;
}

}  // namespace

io::MeshReadResult readMeshFile(const std::filesystem::path& path) {
  io::MeshReadResult result;
  const std::string label = io::meshLabel(path);
  if (std::string e = io::checkMeshFile(path); !e.empty()) {
    result.error = e;
    return result;
  }
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      result.error = label + ": cannot open it (" + std::strerror(errno) + ")";
      return result;
    }
    std::ostringstream all;
    all << in.rdbuf();
    bytes = std::move(all).str();
  }
  const std::string ext = lower(path.extension().string());
  if (ext == ".ply") {
    const long long declared = plyVertexCount(bytes);
    if (declared > static_cast<long long>(io::kMaxMeshVertices)) {
      result.error = label + ": its header declares " + std::to_string(declared) +
                     " vertices, above the limit of " + std::to_string(io::kMaxMeshVertices);
      return result;
    }
  }

  vtkSmartPointer<vtkAbstractPolyDataReader> reader;
  const char* format = "";
  if (ext == ".stl") {
    reader = vtkSmartPointer<vtkSTLReader>::New();
    format = "STL";
  } else if (ext == ".obj") {
    reader = vtkSmartPointer<vtkOBJReader>::New();
    format = "OBJ";
  } else {
    reader = vtkSmartPointer<vtkPLYReader>::New();
    format = "PLY";
  }
  ErrorCatcher catcher;
  vtkNew<vtkCallbackCommand> onError;
  onError->SetCallback(&ErrorCatcher::onError);
  onError->SetClientData(&catcher);
  reader->AddObserver(vtkCommand::ErrorEvent, onError);
  reader->AddObserver(vtkCommand::WarningEvent, onError);
  reader->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, onError);
  reader->SetFileName(path.string().c_str());
  reader->Update();
  vtkPolyData* data = reader->GetOutput();
  if (!catcher.first.empty()) {
    result.error = label + ": VTK's " + format + " reader: " + vtkMessage(catcher.first);
    return result;
  }
  if (!data || !data->GetPoints() || data->GetNumberOfPoints() == 0) {
    result.error = label + ": the file has no vertices (is it a " + format + " file?)";
    return result;
  }
  if (std::size_t(data->GetNumberOfPoints()) > io::kMaxMeshVertices) {
    result.error = label + ": " + std::to_string(data->GetNumberOfPoints()) +
                   " vertices, above the limit of " + std::to_string(io::kMaxMeshVertices);
    return result;
  }

  auto mesh = std::make_shared<MeshData>();
  mesh->path = path.string();
  mesh->bytes = bytes.size();
  mesh->md5 = md5Hex(bytes);
  const vtkIdType n = data->GetNumberOfPoints();
  mesh->points.resize(std::size_t(n));
  for (vtkIdType i = 0; i < n; ++i) {
    double p[3];
    data->GetPoint(i, p);
    mesh->points[std::size_t(i)] = Eigen::Vector3d(p[0], p[1], p[2]);
  }
  // Polygons, fanned into triangles, and the group of each polygon.
  std::vector<int> polyGroup;
  std::vector<std::string> groupNames;
  if (ext == ".obj") {
    ObjGroups g = objGroups(bytes);
    if (g.faceGroup.size() == std::size_t(data->GetNumberOfPolys())) {
      polyGroup = std::move(g.faceGroup);
      groupNames = std::move(g.names);
    }
  }
  std::vector<std::vector<int>> members;
  vtkCellArray* polys = data->GetPolys();
  vtkIdType npts = 0;
  const vtkIdType* ids = nullptr;
  std::size_t k = 0;
  for (polys->InitTraversal(); polys->GetNextCell(npts, ids); ++k) {
    for (vtkIdType j = 1; j + 1 < npts; ++j) {
      mesh->triangles.push_back({int(ids[0]), int(ids[j]), int(ids[j + 1])});
    }
    const int group = k < polyGroup.size() ? polyGroup[k] : 0;
    if (members.size() <= std::size_t(group)) members.resize(std::size_t(group) + 1);
    for (vtkIdType j = 0; j < npts; ++j) members[std::size_t(group)].push_back(int(ids[j]));
  }
  if (members.size() > 1) {
    for (std::size_t g = 0; g < members.size(); ++g) {
      std::vector<int>& m = members[g];
      std::sort(m.begin(), m.end());
      m.erase(std::unique(m.begin(), m.end()), m.end());
      if (m.empty()) continue;
      mesh->groups.push_back(std::move(m));
      mesh->groupNames.push_back(g < groupNames.size() ? groupNames[g] : std::string());
    }
  } else {
    // One body: the hull of every vertex (a point cloud without faces included).
    std::vector<int> all(mesh->points.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = int(i);
    mesh->groups.push_back(std::move(all));
    mesh->groupNames.push_back(groupNames.size() == 1 ? groupNames[0] : std::string());
  }
  result.mesh = std::move(mesh);
  return result;
}

void installVtkMeshReader() { io::installMeshReader(&readMeshFile); }

}  // namespace ricochet::mesh
