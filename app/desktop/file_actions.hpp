#pragma once
// The File menu and the File toolbar of the main window (issue 6): scenario files (open, save,
// recent, presets, drag and drop: ScenarioFiles) and the exports (CSV: CsvExporter). MainWindow
// creates one FileActions in its File menu; everything else lives here.

#include <QObject>

class QAction;
class QMenu;
class QToolBar;

namespace ricochet::app {

class CsvExporter;
class MainWindow;
class ScenarioFiles;

class FileActions : public QObject {
  Q_OBJECT
 public:
  /// Adds the entries to `fileMenu` (the caller appends Quit) and a "File" toolbar to `window`.
  FileActions(MainWindow* window, QMenu* fileMenu);

  ScenarioFiles* scenarios() const { return scenarios_; }
  CsvExporter* csv() const { return csv_; }
  QMenu* presetsMenu() const { return presetsMenu_; }
  QToolBar* toolBar() const { return toolBar_; }
  QAction* exportTraceAction() const { return exportTrace_; }
  QAction* exportImpactsAction() const { return exportImpacts_; }

 private:
  ScenarioFiles* scenarios_ = nullptr;
  CsvExporter* csv_ = nullptr;
  QMenu* presetsMenu_ = nullptr;
  QToolBar* toolBar_ = nullptr;
  QAction* exportTrace_ = nullptr;
  QAction* exportImpacts_ = nullptr;
};

}  // namespace ricochet::app
