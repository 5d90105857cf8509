#include "app/desktop/file_actions.hpp"

#include "app/desktop/export/export_animation.hpp"
#include "app/desktop/export/export_csv.hpp"
#include "app/desktop/export/plot_export.hpp"
#include "app/desktop/run/run_session.hpp"
#include "app/desktop/scenario/presets_menu.hpp"
#include "app/desktop/scenario/scenario_files.hpp"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QToolBar>

namespace ricochet::app {

FileActions::FileActions(QMainWindow* window, RunSession* session, ScenarioEditor* editor,
                         PlotPanel* plots, QMenu* fileMenu)
    : QObject(window) {
  scenarios_ = new ScenarioFiles(window, session, editor);
  csv_ = new CsvExporter(window, session);
  animation_ = new AnimationExporter(window, session);
  plots_ = new PlotExporter(window, session, plots);

  fileMenu->addAction(scenarios_->openAction());
  fileMenu->addMenu(scenarios_->recentMenu());
  presetsMenu_ = createPresetsMenu(window, [this](const Preset& p) { scenarios_->openPreset(p); });
  fileMenu->addMenu(presetsMenu_);
  fileMenu->addSeparator();
  fileMenu->addAction(scenarios_->saveAction());
  fileMenu->addAction(scenarios_->saveAsAction());
  fileMenu->addSeparator();

  exportTrace_ = new QAction(tr("Export &Trace CSV..."), this);
  exportTrace_->setObjectName(QStringLiteral("exportTraceAction"));
  exportTrace_->setIconText(tr("Export CSV"));
  exportTrace_->setToolTip(tr("Export the full-resolution trace of the current run (and its "
                              "impacts) as CSV, in ricochet-cli's format"));
  connect(exportTrace_, &QAction::triggered, this, [this] { csv_->showDialog(true, true); });
  exportImpacts_ = new QAction(tr("Export &Impacts CSV..."), this);
  exportImpacts_->setObjectName(QStringLiteral("exportImpactsAction"));
  exportImpacts_->setToolTip(tr("Export the impacts table of the current run as CSV"));
  connect(exportImpacts_, &QAction::triggered, this, [this] { csv_->showDialog(false, true); });
  exportAnimation_ = new QAction(tr("Export &Animation..."), this);
  exportAnimation_->setObjectName(QStringLiteral("exportAnimationAction"));
  exportAnimation_->setIconText(tr("Export Video"));
  exportAnimation_->setToolTip(tr("Export an animation of the current scenario (MP4, GIF, Ogg/Theora "
                                  "or PNG frames) rendered on the simulation clock"));
  connect(exportAnimation_, &QAction::triggered, this, [this] { animation_->showDialog(); });
  fileMenu->addAction(exportTrace_);
  fileMenu->addAction(exportImpacts_);
  // The same run export, as the files other tools read: HDF5 (h5py, h5dump) and ParaView.
  exportHdf5_ = new QAction(tr("Export &HDF5 Run..."), this);
  exportHdf5_->setObjectName(QStringLiteral("exportHdf5Action"));
  exportHdf5_->setToolTip(
      tr("Export the current run (trace, impacts and scenario) as one HDF5 file, "
         "as ricochet-cli run --h5 writes it"));
  connect(exportHdf5_, &QAction::triggered, this,
          [this] { csv_->showDialog(false, false, true, false); });
  exportParaView_ = new QAction(tr("Export ParaView &Series..."), this);
  exportParaView_->setObjectName(QStringLiteral("exportParaViewAction"));
  exportParaView_->setToolTip(
      tr("Export the current run as a ParaView time series (run.pvd and one "
         ".vtp per recorded step), as ricochet-cli run --pvd writes it"));
  connect(exportParaView_, &QAction::triggered, this,
          [this] { csv_->showDialog(false, false, false, true); });
  fileMenu->addAction(exportHdf5_);
  fileMenu->addAction(exportParaView_);
  exportPlots_ = new QAction(tr("Export &Plots..."), this);
  exportPlots_->setObjectName(QStringLiteral("exportPlotsAction"));
  exportPlots_->setIconText(tr("Export Plots"));
  exportPlots_->setToolTip(tr("Export the plots as a PNG image of a chosen size or as an SVG "
                              "drawing (vector curves, text labels)"));
  connect(exportPlots_, &QAction::triggered, this, [this] { plots_->showDialog(); });
  fileMenu->addAction(exportAnimation_);
  fileMenu->addAction(exportPlots_);

  toolBar_ = window->addToolBar(tr("File"));
  toolBar_->setObjectName(QStringLiteral("fileToolBar"));
  toolBar_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);  // as the Run toolbar
  toolBar_->addAction(scenarios_->openAction());
  toolBar_->addAction(scenarios_->saveAction());
  toolBar_->addAction(exportTrace_);
  toolBar_->addAction(exportAnimation_);
  toolBar_->addAction(exportPlots_);
}

}  // namespace ricochet::app
