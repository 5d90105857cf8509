#pragma once
// A run as a ParaView time series: DIR/run.pvd indexes one DIR/run_NNNNNN.vtp per recorded trace
// row (the initial state, every K-th step, the final state), with the row's simulated time as its
// `timestep`, so ParaView plays it as an animation on the simulation clock. Each .vtp (VTK XML
// PolyData, zlib-compressed, written by vtkXMLPolyDataWriter) holds the bodies at their poses, the
// obstacles, the tracked body's trail through the recorded states so far (at most the live view's
// kTrailCapacity points) and, as vertices with their impulse as point data, the impacts since the
// previous file; its field data holds TimeValue (s) and step. The arrays are listed in
// series_frame.hpp.
//
// A RecordSink of core/io's run driver, so the series comes from the very rows the trace CSV gets.
// It is written into a hidden temporary folder renamed into place by commit() (series_folder.hpp):
// a cancelled or failed run leaves no half series. No rendering: no display needed.

#include "core/io/trace.hpp"
#include "core/model/scene.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace ricochet::render::paraview {

/// The index file in the series folder.
inline constexpr const char* kSeriesIndex = "run.pvd";

/// True for the names a series folder holds: kSeriesIndex and run_<digits>.vtp.
bool isSeriesFile(const std::string& fileName);

class SeriesWriter final : public io::RecordSink {
 public:
  SeriesWriter();
  ~SeriesWriter() override;  ///< discards a series that was not committed
  SeriesWriter(const SeriesWriter&) = delete;
  SeriesWriter& operator=(const SeriesWriter&) = delete;

  /// Starts a series of `scene` (the run's SystemDescription::scene()) into `folder`, which may not
  /// exist yet, be empty or hold a previous series (replaced by commit()). Empty on success,
  /// otherwise one line naming the folder.
  std::string open(const std::filesystem::path& folder, const SceneSpec& scene);
  bool isOpen() const;
  /// Parts or obstacles of the scene that cannot be drawn and are left out ("" when none).
  const std::string& sceneProblems() const;

  std::string onRow(const Simulation& simulation, const io::TraceRow& row) override;
  std::string onImpact(const ImpactRecord& impact, std::string_view constraint) override;
  std::string commit(const io::RunSummary& summary) override;
  void discard() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> d;
};

}  // namespace ricochet::render::paraview
