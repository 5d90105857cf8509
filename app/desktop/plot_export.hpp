#pragma once
// Plot export from the desktop app (issue 6 item 3): the live plots as a PNG image of a chosen
// size or as an SVG drawing (vector paths for the curves, text for the labels and titles).
//
// The export never touches the live view: it copies the charts PlotPanel draws (read through its
// VtkWidget's render window: the context scene's vtkChartXY items, their plots, axes and legends)
// with a frozen copy of their data into a new off-screen VTK window of the requested size, with
// fonts and line widths scaled to that size, and renders that (PNG) or writes it as SVG from the
// layout VTK computed for it (axes, ticks, labels) and the data in double precision. Files are
// written through core/io's atomic writer (a temporary file renamed over the target), so a
// failure leaves nothing behind. The render uses the GUI thread (OpenGL), so the export runs
// there, under a busy cursor; ExportController shows the dialog and the outcome.

#include "app/desktop/export_controller.hpp"
#include "app/desktop/size_picker.hpp"

#include <QDialog>
#include <QObject>
#include <QSize>
#include <QString>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ricochet::app {

class MainWindow;
class PlotPanel;

enum class PlotFormat { Png, Svg };

/// Which charts: all visible ones stacked as on screen, or one of them.
enum class PlotSelection { All = -1, Energy = 0, Error = 1, Momentum = 2 };

struct PlotExportRequest {
  PlotFormat format = PlotFormat::Png;
  QString output;             ///< the file to write (.png / .svg)
  QSize size{1600, 1000};     ///< pixels (PNG); the drawing's size in SVG user units (px)
  PlotSelection charts = PlotSelection::All;
};

/// Text and line scale for an export of `size`: 1 up to 800 x 500, growing with the smaller of
/// width/800 and height/500 (so a 1600 x 1000 figure reads like the 800 x 500 one), at most 4.
double plotExportScale(QSize size);

/// Writes the plots of `panel` as `request` asks. Empty on success, otherwise one line naming the
/// file (nothing is written then).
QString exportPlots(const PlotPanel& panel, const PlotExportRequest& request);

/// The dialog: format, file, size (presets and custom), which plots.
class PlotExportDialog : public QDialog {
  Q_OBJECT
 public:
  PlotExportDialog(const QString& directory, const QString& baseName, QWidget* parent = nullptr);

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
  explicit PlotExporter(MainWindow* window);

  void showDialog();
  /// Exports now; empty on success (status bar message), otherwise the reason (also shown in one
  /// message box).
  QString start(const PlotExportRequest& request);

  PlotExportDialog* dialog() const;

 signals:
  void finished(const QString& error);  ///< after each start(); empty error on success

 private:
  MainWindow* window_;
  PlotExportTask* task_ = nullptr;
  ExportController* controller_ = nullptr;
};

}  // namespace ricochet::app
