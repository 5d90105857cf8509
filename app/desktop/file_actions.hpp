#pragma once
// The File menu and the File toolbar of the main window: scenario files (open, save,
// recent, presets, drag and drop: ScenarioFiles) and the exports (CSV, HDF5 and ParaView:
// CsvExporter; animation: AnimationExporter; plots: PlotExporter). MainWindow
// creates one FileActions in its File menu; the pieces live in scenario/ and export/.

#include <QObject>

class QAction;
class QMainWindow;
class QMenu;
class QToolBar;

namespace ricochet::app {

class AnimationExporter;
class CsvExporter;
class PlotExporter;
class PlotPanel;
class RunSession;
class ScenarioEditor;
class ScenarioFiles;

class FileActions : public QObject {
  Q_OBJECT
 public:
  /// Adds the entries to `fileMenu` (the caller appends Quit) and a "File" toolbar to `window`.
  /// Files open into `session`, whose current run the exports write; a dropped mesh goes to
  /// `editor`'s Body section; Export Plots draws `plots`.
  FileActions(QMainWindow* window, RunSession* session, ScenarioEditor* editor, PlotPanel* plots,
              QMenu* fileMenu);

  ScenarioFiles* scenarios() const { return scenarios_; }
  CsvExporter* csv() const { return csv_; }
  AnimationExporter* animation() const { return animation_; }
  PlotExporter* plotExporter() const { return plots_; }
  QMenu* presetsMenu() const { return presetsMenu_; }
  QToolBar* toolBar() const { return toolBar_; }
  QAction* exportTraceAction() const { return exportTrace_; }
  QAction* exportImpactsAction() const { return exportImpacts_; }
  QAction* exportHdf5Action() const { return exportHdf5_; }
  QAction* exportParaViewAction() const { return exportParaView_; }
  QAction* exportAnimationAction() const { return exportAnimation_; }
  QAction* exportPlotsAction() const { return exportPlots_; }

 private:
  ScenarioFiles* scenarios_ = nullptr;
  CsvExporter* csv_ = nullptr;
  AnimationExporter* animation_ = nullptr;
  PlotExporter* plots_ = nullptr;
  QMenu* presetsMenu_ = nullptr;
  QToolBar* toolBar_ = nullptr;
  QAction* exportTrace_ = nullptr;
  QAction* exportImpacts_ = nullptr;
  QAction* exportHdf5_ = nullptr;
  QAction* exportParaView_ = nullptr;
  QAction* exportAnimation_ = nullptr;
  QAction* exportPlots_ = nullptr;
};

}  // namespace ricochet::app
