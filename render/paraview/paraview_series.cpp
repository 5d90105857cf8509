#include "render/paraview/paraview_series.hpp"

#include "render/paraview/series_folder.hpp"
#include "render/paraview/series_frame.hpp"
#include "render/scene/trail.hpp"

#include <vtkCallbackCommand.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkTypeInt64Array.h>
#include <vtkXMLPolyDataWriter.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace ricochet::render::paraview {
namespace {

constexpr const char* kIndexHead =
    "<?xml version=\"1.0\"?>\n"
    "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
    "  <Collection>\n";
constexpr const char* kIndexTail = "  </Collection>\n</VTKFile>\n";

std::string frameName(std::int64_t frame) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "run_%06lld.vtp", static_cast<long long>(frame));
  return buf;
}

// Keeps VTK's error and warning messages of one writer (instead of its output window's stderr).
void catchMessage(vtkObject*, unsigned long event, void* clientData, void* callData) {
  if (event != vtkCommand::ErrorEvent) return;
  auto* text = static_cast<std::string*>(clientData);
  if (text->empty() && callData) *text = static_cast<const char*>(callData);
  while (!text->empty() && (text->back() == '\n' || text->back() == ' ')) text->pop_back();
}

// Writes `bytes` to a new file `path`. Empty on success, else the system's reason.
std::string writeFile(const std::filesystem::path& path, const std::string& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return std::strerror(errno);
  std::string error;
  if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fflush(f) != 0) {
    error = std::strerror(errno);
  }
  if (std::fclose(f) != 0 && error.empty()) error = std::strerror(errno);
  return error;
}

}  // namespace

bool isSeriesFile(const std::string& name) {
  if (name == kSeriesIndex) return true;
  constexpr std::string_view prefix = "run_", suffix = ".vtp";
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) ||
      !name.ends_with(suffix)) {
    return false;
  }
  for (std::size_t i = prefix.size(); i < name.size() - suffix.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
  }
  return true;
}

struct SeriesWriter::Impl {
  SeriesFolder folder;
  std::unique_ptr<FrameBuilder> frames;
  double trailStep = 0.0;  // m: a new trail point after moving this far
  std::vector<Pose> poses;
  std::vector<Eigen::Vector3d> trail;  // ring of at most kTrailCapacity points
  std::size_t trailHead = 0;           // index of the oldest point once the ring is full
  std::vector<Eigen::Vector3d> trailInOrder;
  std::vector<FrameImpact> pending;  // impacts since the previous frame
  std::int64_t impactRows = 0;
  std::int64_t frameCount = 0;
  std::FILE* index = nullptr;
  vtkNew<vtkXMLPolyDataWriter> writer;
  vtkNew<vtkCallbackCommand> onError;
  std::string vtkError;

  Impl() {
    // Appended raw binary, zlib, 64-bit headers, little endian: what ParaView writes itself.
    writer->SetDataModeToAppended();
    writer->EncodeAppendedDataOff();
    writer->SetCompressorTypeToZLib();
    writer->SetCompressionLevel(5);
    writer->SetHeaderTypeToUInt64();
    writer->SetByteOrderToLittleEndian();
    // The frame is made in memory and written by onRow(): VTK never touches the disk, so a full
    // disk is one message with the system's reason, never VTK's own multi-line report on stderr.
    writer->WriteToOutputStringOn();
    onError->SetCallback(&catchMessage);
    onError->SetClientData(&vtkError);
    writer->AddObserver(vtkCommand::ErrorEvent, onError);
    writer->AddObserver(vtkCommand::WarningEvent, onError);
  }

  std::string fail(const std::string& what) const { return folder.target().string() + ": " + what; }

  std::string writeIndex(const std::string& text) {
    if (std::fwrite(text.data(), 1, text.size(), index) != text.size()) {
      return fail(std::string("cannot write ") + kSeriesIndex + ": " + std::strerror(errno));
    }
    return {};
  }

  void closeIndex() {
    if (index) std::fclose(index);
    index = nullptr;
  }

  void addTrailPoint(const Eigen::Vector3d& p) {
    if (!p.allFinite()) return;
    if (!trail.empty()) {
      const std::size_t newest = (trailHead + trail.size() - 1) % trail.size();
      if ((p - trail[newest]).norm() < trailStep) return;
    }
    if (trail.size() < std::size_t(detail::kTrailCapacity)) {
      trail.push_back(p);
    } else {
      trail[trailHead] = p;
      trailHead = (trailHead + 1) % trail.size();
    }
  }

  const std::vector<Eigen::Vector3d>& orderedTrail() {
    trailInOrder.clear();
    for (std::size_t i = 0; i < trail.size(); ++i)
      trailInOrder.push_back(trail[(trailHead + i) % trail.size()]);
    return trailInOrder;
  }
};

SeriesWriter::SeriesWriter() : d(std::make_unique<Impl>()) {}

SeriesWriter::~SeriesWriter() {
  discard();
}

bool SeriesWriter::isOpen() const {
  return d->folder.isOpen();
}

const std::string& SeriesWriter::sceneProblems() const {
  static const std::string kNone;
  return d->frames ? d->frames->problems() : kNone;
}

std::string SeriesWriter::open(const std::filesystem::path& folder, const SceneSpec& scene) {
  discard();
  if (std::string e = d->folder.open(folder, &isSeriesFile); !e.empty()) return e;
  d->frames = std::make_unique<FrameBuilder>(scene);
  const double L = scene.characteristicLength > 0.0 ? scene.characteristicLength : 1.0;
  d->trailStep = detail::kTrailMinStep * L;
  d->poses.assign(scene.bodies.size(), Pose{});
  d->trail.reserve(detail::kTrailCapacity);
  const std::filesystem::path index = d->folder.temporaryPath() / kSeriesIndex;
  d->index = std::fopen(index.c_str(), "wb");
  std::string error =
      d->index ? d->writeIndex(kIndexHead)
               : d->fail(std::string("cannot write ") + kSeriesIndex + ": " + std::strerror(errno));
  if (!error.empty()) discard();
  return error;
}

std::string SeriesWriter::onRow(const Simulation& simulation, const io::TraceRow& row) {
  if (!isOpen()) return "a ParaView series row for a folder that is not open";
  simulation.poses(d->poses);
  if (!d->poses.empty()) d->addTrailPoint(d->poses[std::size_t(d->frames->trackedBody())].position);
  vtkSmartPointer<vtkPolyData> frame = d->frames->build(d->poses, d->orderedTrail(), d->pending);
  vtkNew<vtkDoubleArray> time;
  time->SetName("TimeValue");
  time->InsertNextValue(row.t);
  vtkNew<vtkTypeInt64Array> step;
  step->SetName("step");
  step->InsertNextValue(row.step);
  frame->GetFieldData()->AddArray(time);
  frame->GetFieldData()->AddArray(step);

  const std::string name = frameName(d->frameCount);
  const std::filesystem::path file = d->folder.temporaryPath() / name;
  d->vtkError.clear();
  d->writer->SetInputData(frame);
  if (d->writer->Write() != 1 || d->writer->GetErrorCode() != 0 || !d->vtkError.empty()) {
    return d->fail("cannot make " + name +
                   (d->vtkError.empty() ? std::string() : std::string(": ") + d->vtkError));
  }
  d->writer->SetInputData(nullptr);
  if (std::string e = writeFile(file, d->writer->GetOutputString()); !e.empty()) {
    return d->fail("cannot write " + name + ": " + e);
  }
  d->pending.clear();
  ++d->frameCount;
  std::string line = "    <DataSet timestep=\"";
  io::appendNumber(line, row.t);  // 17 significant digits: the trace CSV's t exactly
  line += "\" group=\"\" part=\"0\" file=\"";
  line += name;
  line += "\"/>\n";
  return d->writeIndex(line);
}

std::string SeriesWriter::onImpact(const ImpactRecord& impact, std::string_view) {
  const std::int64_t row = d->impactRows++;
  if (impact.contactPoint.allFinite())
    d->pending.push_back({impact.contactPoint, impact.impulse, row});
  return {};
}

std::string SeriesWriter::commit(const io::RunSummary&) {
  if (!isOpen()) return "commit of a ParaView series that is not open";
  std::string error = d->writeIndex(kIndexTail);
  if (error.empty() && std::fflush(d->index) != 0)
    error = d->fail(std::string("cannot write ") + kSeriesIndex);
  if (std::fclose(std::exchange(d->index, nullptr)) != 0 && error.empty()) {
    error = d->fail(std::string("cannot write ") + kSeriesIndex + ": " + std::strerror(errno));
  }
  if (error.empty()) error = d->folder.commit();
  if (!error.empty()) discard();
  return error;
}

void SeriesWriter::discard() {
  d->closeIndex();
  d->folder.discard();
  d->frames.reset();
  d->trail.clear();
  d->trailHead = 0;
  d->pending.clear();
  d->impactRows = 0;
  d->frameCount = 0;
}

}  // namespace ricochet::render::paraview
