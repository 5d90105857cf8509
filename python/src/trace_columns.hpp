#pragma once
// A run's recorded trace rows and impacts in memory, column by column, fed by the run driver
// (io::RecordSink) with the very numbers the trace and impacts CSVs print, and handed to Python as
// NumPy arrays keyed by the CSV column names.

#include "convert.hpp"

#include "core/io/run_metrics.hpp"
#include "core/io/trace.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ricochet::python {

/// Impact rows, one vector per impacts-CSV column.
struct ImpactColumns {
  std::vector<double> step, t, alpha, energyBefore, energyAfter, impulse, reflected;
  std::vector<std::string> constraint;  ///< the gap's name, as the CSV writes it
  std::vector<double> bodyA, bodyB;     ///< the two bodies' indices (-1 for a plane)
  bool bodies = false;                  ///< a world of several bodies: body_a, body_b are columns

  void add(const ImpactRecord& impact, std::string_view constraintName);
  void append(const ImpactColumns& other);
  std::size_t size() const { return t.size(); }
  /// {column: array} in the impacts CSV's order: float64 arrays, and `constraint` as an array of
  /// str. Copies (the columns stay).
  py::dict toDict() const;
};

class TraceColumns final : public io::RecordSink {
 public:
  /// `systemColumns`: Simulation::columns(); `expectedRows` only reserves memory.
  TraceColumns(std::span<const std::string> systemColumns, std::int64_t expectedRows);

  /// A Simulation advanced in chunks: energy_rel_error is taken against `reference` (the first
  /// state of the whole run; the driver's own reference is the chunk's first state), and the row at
  /// step `skipStep` is left out (a chunk's first row is the previous chunk's last).
  const io::RunMetrics* reference = nullptr;
  std::int64_t skipStep = -1;

  std::string onRow(const Simulation& simulation, const io::TraceRow& row) override;
  std::string onImpact(const ImpactRecord& impact, std::string_view constraint) override;
  std::string commit(const io::RunSummary&) override { return {}; }
  /// Keeps everything: after a cancel the caller raises KeyboardInterrupt and drops the rows itself
  /// (a Simulation keeps the impacts of the steps it did take).
  void discard() override {}

  /// {column: float64 array} in the trace CSV's order; moves the columns out.
  py::dict takeTrace();
  const ImpactColumns& impacts() const { return impacts_; }

 private:
  std::vector<std::string> names_;
  std::vector<std::vector<double>> columns_;
  ImpactColumns impacts_;
};

}  // namespace ricochet::python
