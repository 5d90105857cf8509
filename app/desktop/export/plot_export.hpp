#pragma once
// Plot export from the desktop app: the live plots as a PNG image of a chosen
// size or as an SVG drawing (vector paths for the curves, text for the labels and titles).
//
// The export never touches the live view: it takes the plot data PlotPanel computed (PlotFigure:
// series, ranges, titles, pens), paints it with the panel's painter (plot_png) or writes it as SVG
// (plot_svg), on the layout the screen uses, into memory; the bytes then go to the file through
// core/io's atomic writer, so a failure leaves nothing behind. Exports run on the GUI thread,
// under a busy cursor; ExportController shows the dialog and the outcome.

#include "app/desktop/export/export_controller.hpp"
#include "app/desktop/plots/plot_figure.hpp"
#include "app/desktop/widgets/size_picker.hpp"

#include <QDialog>
#include <QObject>
#include <QSize>
#include <QString>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ricochet::app {

class RunSource;
class PlotPanel;

enum class PlotFormat { Png, Svg };

/// Which charts: all panels stacked as on screen, one of the default panels, or panel i as
/// PlotSelection(int(FirstPanel) + i).
enum class PlotSelection { All = -1, Energy = 0, Error = 1, Momentum = 2, FirstPanel = 100 };

struct PlotExportRequest {
  PlotFormat format = PlotFormat::Png;
  QString output;             ///< the file to write (.png / .svg)
  QSize size{1600, 1000};     ///< pixels (PNG); the drawing's size in SVG user units (px)
  PlotSelection charts = PlotSelection::All;
};

/// Writes the plots of `panel` as `request` asks. Empty on success, otherwise one line naming the
/// file (nothing is written then).
QString exportPlots(const PlotPanel& panel, const PlotExportRequest& request);

/// The dialog: format, file, size (presets and custom), which plots.
class PlotExportDialog : public QDialog {
  Q_OBJECT
 public:
  /// `panel`: offers its panels besides the default ones (may be null).
  PlotExportDialog(const QString& directory, const QString& baseName, QWidget* parent = nullptr,
                   const PlotPanel* panel = nullptr);

  PlotExportRequest request(QString* error = nullptr) const;
  PlotFormat format() const;
  void setFormat(PlotFormat format);

  // The fields, for tests.
  QComboBox* formatCombo() const { return format_; }
  QLineEdit* pathEdit() const { return path_; }
  QComboBox* sizeCombo() const { return size_->combo(); }
  QSpinBox* widthSpin() const { return size_->widthSpin(); }
  QSpinBox* heightSpin() const { return size_->heightSpin(); }
  QComboBox* chartsCombo() const { return charts_; }
  QLabel* errorLabel() const { return error_; }

  void accept() override;  ///< refuses (message in the dialog) while the request is invalid

 private:
  void onFormatChanged();
  QComboBox* format_ = nullptr;
  QLineEdit* path_ = nullptr;
  SizePicker* size_ = nullptr;
  QComboBox* charts_ = nullptr;
  QLabel* error_ = nullptr;
};

/// One plot export, on the GUI thread: it has finished when start() returns.
class PlotExportTask : public ExportJob {
  Q_OBJECT
 public:
  explicit PlotExportTask(const PlotPanel& panel, QObject* parent = nullptr);

  /// Exports `request` (finished() is emitted before it returns). Never refuses: every problem
  /// is the export's outcome (error()).
  QString start(const PlotExportRequest& request);
  bool isRunning() const override { return false; }
  void cancel() override {}
  ExportReport report() const override;
  /// Why the last export failed; empty when it succeeded.
  QString error() const { return error_; }

 private:
  const PlotPanel& panel_;
  PlotExportRequest request_;
  QString error_;
};

/// File > Export Plots...: the dialog and the export, run by an ExportController.
class PlotExporter : public QObject {
  Q_OBJECT
 public:
  /// Exports `plots` (named after `source`'s system); dialogs and messages over `window`.
  PlotExporter(QMainWindow* window, const RunSource* source, PlotPanel* plots);

  void showDialog();
  /// Exports now; empty on success (status bar message), otherwise the reason (also shown in one
  /// message box).
  QString start(const PlotExportRequest& request);

  PlotExportDialog* dialog() const;

 signals:
  void finished(const QString& error);  ///< after each start(); empty error on success

 private:
  QMainWindow* window_;
  const RunSource* source_;
  PlotPanel* plots_;
  PlotExportTask* task_ = nullptr;
  ExportController* controller_ = nullptr;
};

}  // namespace ricochet::app
