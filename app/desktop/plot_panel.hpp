#pragma once
// Live plots (VTK charts in a VtkWidget): energies (total, kinetic, potential, e.* columns), the
// relative energy error (linear or log10 of its magnitude) and the momentum-like quantities
// (mom.* columns), with impact times marked as vertical lines. The data arrive decimated by the
// worker (at most two points per pixel column), so a redraw costs the same after 1e3 or 1e7 steps.

#include "app/desktop/plot_figure.hpp"
#include "app/desktop/run_data.hpp"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QLabel;

namespace ricochet::render {
class VtkWidget;
}

namespace ricochet::app {

class PlotPanel : public QWidget {
  Q_OBJECT
 public:
  enum Chart { Energy = 0, Error = 1, Momentum = 2 };

  explicit PlotPanel(QWidget* parent = nullptr);
  ~PlotPanel() override;

  /// A new run: rebuilds the series of each chart from `info` and clears the data.
  void setRun(const RunInfo& info);
  /// Shows the decimated data of `snapshot` (and schedules a redraw).
  void setSnapshot(const Snapshot& snapshot);

  /// Error chart in log10 |error| (true) or linear (false).
  void setLogError(bool log);
  bool logError() const;

  /// Pixel width of the plot area: the worker decimates to this many columns.
  int plotColumns() const;

  render::VtkWidget* view() const { return view_; }

  // What the user sees, for tests: the series names of a chart, the plotted points of one
  // series (y values) and the number of impact markers drawn.
  QStringList seriesNames(Chart chart) const;
  std::vector<double> plottedValues(Chart chart, const QString& name) const;
  std::vector<double> plottedTimes(Chart chart) const;
  int markerCount(Chart chart) const;
  bool chartVisible(Chart chart) const;

  /// What `chart` shows now, as data: titles, ranges, series with their pens and points, impact
  /// lines, legend (what the plot exports draw).
  PlotChart chartData(Chart chart) const;

 signals:
  void plotColumnsChanged(int columns);
  void logErrorToggled(bool log);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void layoutCharts();
  void refreshErrorMode();
  struct Impl;
  std::unique_ptr<Impl> d;
  render::VtkWidget* view_ = nullptr;
  QCheckBox* logBox_ = nullptr;
  QLabel* errorLabel_ = nullptr;
};

}  // namespace ricochet::app
