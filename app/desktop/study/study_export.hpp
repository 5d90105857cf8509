#pragma once
// The study window's exports, through the window's ExportController (dialog, busy cursor, report
// in the status bar and a box on failure):
//  * the results CSV: the study's table text as it is, which is ricochet-cli's file byte for byte;
//  * the figure: PNG (a chosen size; text and lines grow with it, like the plot exports) or SVG
//    (vector paths and text), drawn by the very routine that paints the plot on screen.
// Both are made in memory and written with writeFileAtomically(): complete or not at all.

#include "app/desktop/export/export_controller.hpp"
#include "app/desktop/study/study_figure.hpp"
#include "app/desktop/widgets/size_picker.hpp"

#include <QDialog>
#include <QSize>
#include <QString>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;

namespace ricochet::app {

enum class FigureFormat { Png, Svg };

struct FigureExportRequest {
  FigureFormat format = FigureFormat::Png;
  QString output;
  QSize size{1600, 1000};  ///< px (PNG); the drawing's size in user units (SVG)
};

/// Writes `figure` as `request` asks. Empty on success, otherwise one line naming the file.
QString exportStudyFigure(const StudyFigure& figure, const FigureExportRequest& request);

/// Format, file and size of a figure export.
class StudyFigureDialog : public QDialog {
  Q_OBJECT
 public:
  StudyFigureDialog(const QString& directory, const QString& baseName, QWidget* parent = nullptr);

  FigureExportRequest request(QString* error = nullptr) const;
  QComboBox* formatCombo() const { return format_; }
  QLineEdit* pathEdit() const { return path_; }
  SizePicker* sizePicker() const { return size_; }
  QLabel* errorLabel() const { return error_; }

  void accept() override;  ///< refuses (message in the dialog) while the request is invalid

 private:
  QComboBox* format_ = nullptr;
  QLineEdit* path_ = nullptr;
  SizePicker* size_ = nullptr;
  QLabel* error_ = nullptr;
};

/// One export that is done on the GUI thread: `write` makes and writes the file (empty, or why
/// not); finished() follows before start() returns.
class StudyExportTask : public ExportJob {
  Q_OBJECT
 public:
  using ExportJob::ExportJob;

  /// Runs `write`; `done` is the status line on success ("Results exported to ...").
  QString start(const std::function<QString()>& write, const QString& done, const QString& title);
  bool isRunning() const override { return false; }
  void cancel() override {}
  ExportReport report() const override;
  QString error() const { return error_; }

 private:
  QString error_, done_, title_;
};

}  // namespace ricochet::app
