#pragma once
// Live plots: a stack of panels the user sets up. By default three time plots: the energies
// (total, kinetic, potential, e.* columns), the relative energy error (linear or log10 of its
// magnitude) and the momentum-like quantities (mom.* columns), with impact times marked as
// vertical lines. Each time panel can show any trace column (q., v./p., mom., e., con.) and plot
// it as its deviation from the initial value (Δ); panels can be added and removed, among them two
// views of impacting systems: a phase portrait (any column against any other) and an impact map
// (chosen columns sampled at each impact, a Poincaré section).
//
// Exploring: zoom and pan of the shared time axis, a hover read-out, and a click on an impact line
// shows that impact's row (PlotInteraction). Memory is bounded at any run length: the time plots
// draw the worker's min/max decimation (at most two points per pixel column), the phase portraits
// its evenly spaced rows and the impact map its impacts, one per decimation bucket
// (plot_samples.hpp).

#include "app/desktop/plots/plot_charts.hpp"
#include "app/desktop/plots/plot_figure.hpp"
#include "app/desktop/run/run_data.hpp"

#include <QRectF>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QCheckBox;
class QDialog;
class QLabel;
class QMenu;
class QToolButton;

namespace ricochet::app {

class PlotCanvas;
class PlotInteraction;

class PlotPanel : public QWidget {
  Q_OBJECT
 public:
  /// The default panels' roles.
  enum Chart { Energy = 0, Error = 1, Momentum = 2 };

  /// What a panel shows (plot_charts.hpp).
  using Panel = PanelChoice;

  explicit PlotPanel(QWidget* parent = nullptr);
  ~PlotPanel() override;

  /// A new run: the panels stay (a new system gets the default ones plus those of the user's
  /// that it can show), the data are cleared and the axes drawn at once.
  void setRun(const RunInfo& info);
  /// Shows the data of `snapshot` (and schedules a redraw).
  void setSnapshot(SnapshotPtr snapshot);
  void setSnapshot(const Snapshot& snapshot);

  /// Draws `overlay` (a second run's curves, null: none) dashed over the time panels, up to the
  /// shown run's time; kept across runs until replaced.
  void setOverlay(std::shared_ptr<const OverlayCurves> overlay);
  const std::shared_ptr<const OverlayCurves>& overlay() const;

  /// Error chart in log10 |error| (true) or linear (false).
  void setLogError(bool log);
  bool logError() const;

  /// Pixel columns the worker decimates to: the plot areas' width, times the zoom factor so a
  /// zoomed view keeps its detail.
  int plotColumns() const;

  PlotCanvas* view() const { return canvas_; }

  // Panels.
  int panelCount() const;
  const Panel& panel(int index) const;
  /// Adds `panel` at the end (its columns default sensibly when empty); returns its index.
  int addPanel(Panel panel);
  void removePanel(int index);
  void setPanel(int index, Panel panel);
  /// The panel with `role`, or -1.
  int panelIndex(Chart role) const;
  /// Every quantity a panel can show, in trace order.
  QStringList quantities() const;
  /// The right-click menu of panel `index` (built anew; owned by the caller).
  QMenu* panelMenu(int index);

  // Exploring.
  void zoomTime(double t0, double t1);
  void resetZoom();
  bool zoomed() const;
  /// The time range the time panels show.
  std::pair<double, double> timeWindow() const;
  /// The hover read-out's text (empty when the pointer is not over a chart).
  QString readout() const;
  /// The impact read-out window (null until an impact was clicked).
  QDialog* impactDetails() const;
  /// The text the impact read-out shows for kept impact `index` of the current snapshot.
  QString impactText(int index) const;

  // What the user sees, for tests and the exports.
  QStringList seriesNames(Chart chart) const;
  std::vector<double> plottedValues(Chart chart, const QString& name) const;
  std::vector<double> plottedTimes(Chart chart) const;
  int markerCount(Chart chart) const;
  bool chartVisible(Chart chart) const;
  /// What the default panel `chart` shows now, as data (empty chart when it has none).
  PlotChart chartData(Chart chart) const;
  /// What panel `index` shows now.
  PlotChart panelChart(int index) const;
  /// Every panel, stacked as on screen.
  PlotFigure figure() const;
  /// Where panel `index`'s plot area and legend are in the view (px).
  QRectF plotArea(int index) const;
  QRectF legendRect(int index) const;

 signals:
  void plotColumnsChanged(int columns);
  void logErrorToggled(bool log);
  /// Panels were added, removed or changed.
  void panelsChanged();
  /// An impact line was clicked: its read-out is shown.
  void impactShown(const QString& text);

 private:
  void rebuild();
  void defaultPanels();
  void onHover(int chart, QPointF at);
  void onClick(int chart, QPointF at);
  void updateColumns();
  struct Impl;
  std::unique_ptr<Impl> d;
  PlotCanvas* canvas_ = nullptr;
  PlotInteraction* interaction_ = nullptr;
  QCheckBox* logBox_ = nullptr;
  QLabel* errorLabel_ = nullptr;
  QLabel* readout_ = nullptr;
  QToolButton* addButton_ = nullptr;
  QToolButton* resetZoomButton_ = nullptr;
};

}  // namespace ricochet::app
