#include "app/desktop/study/study_window.hpp"

#include "app/desktop/run/run_session.hpp"
#include "app/desktop/study/study_editor.hpp"
#include "app/desktop/study/study_job.hpp"
#include "app/desktop/study/study_plot.hpp"
#include "app/desktop/study/study_table.hpp"
#include "app/desktop/widgets/notify.hpp"
#include "core/io/json.hpp"
#include "core/study/study_file.hpp"

#include <QAction>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include <cmath>

namespace ricochet::app {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString duration(double seconds) {
  if (!(seconds < 1e9)) return QStringLiteral("?");
  if (seconds < 1.0) return QStringLiteral("%1 s").arg(seconds, 0, 'g', 2);
  if (seconds < 60.0) return QStringLiteral("%1 s").arg(seconds, 0, 'f', seconds < 10.0 ? 1 : 0);
  if (seconds < 3600.0) return QStringLiteral("%1m%2s").arg(int(seconds) / 60).arg(int(seconds) % 60, 2, 10, QLatin1Char('0'));
  return QStringLiteral("%1h%2m").arg(int(seconds) / 3600).arg(int(seconds) % 3600 / 60, 2, 10, QLatin1Char('0'));
}

const char* presetName(StudyPreset p) {
  switch (p) {
    case StudyPreset::Custom: return "study";
    case StudyPreset::Convergence: return "convergence";
    case StudyPreset::Sensitivity: return "sensitivity";
    case StudyPreset::Compare: return "compare";
  }
  return "study";
}

}  // namespace

StudyWindow::StudyWindow(RunSession* session, const Scenario& seed, QWidget* parent)
    : QMainWindow(parent, Qt::Window), session_(session), clock_(std::make_unique<QElapsedTimer>()) {
  setObjectName(QStringLiteral("studyWindow"));
  setAttribute(Qt::WA_DeleteOnClose);
  setWindowIcon(QIcon(QStringLiteral(":/ricochet/icons/ricochet.svg")));
  job_ = new StudyJob(this);
  connect(job_, &StudyJob::started, this, &StudyWindow::onStarted);
  connect(job_, &StudyJob::progressed, this, &StudyWindow::onProgress);
  connect(job_, &StudyJob::rowsArrived, this, &StudyWindow::onRows);
  connect(job_, &StudyJob::finished, this, &StudyWindow::onFinished);

  // The editor and the run controls (left).
  auto* side = new QWidget;
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 6);
  editor_ = new StudyEditor;
  sideLayout->addWidget(editor_, 1);
  auto* runRow = new QHBoxLayout;
  runRow->setContentsMargins(6, 0, 6, 0);
  runButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run Study"));
  runButton_->setObjectName(QStringLiteral("runStudyButton"));
  runButton_->setDefault(true);
  cancelButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel"));
  cancelButton_->setObjectName(QStringLiteral("cancelStudyButton"));
  cancelButton_->setEnabled(false);
  runRow->addWidget(runButton_, 1);
  runRow->addWidget(cancelButton_);
  sideLayout->addLayout(runRow);
  progress_ = new QProgressBar;
  progress_->setObjectName(QStringLiteral("studyProgress"));
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setTextVisible(false);
  progress_->setMaximumHeight(8);
  progressLabel_ = new QLabel(tr("Ready"));
  progressLabel_->setObjectName(QStringLiteral("studyProgressLabel"));
  progressLabel_->setWordWrap(true);
  progressLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  for (QWidget* w : std::initializer_list<QWidget*>{progress_, progressLabel_}) {
    auto* row = new QHBoxLayout;
    row->setContentsMargins(6, 0, 6, 0);
    row->addWidget(w);
    sideLayout->addLayout(row);
  }
  auto* dock = new QDockWidget(tr("Study editor"), this);
  dock->setObjectName(QStringLiteral("studyDock"));
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  dock->setWidget(side);
  side->setMinimumWidth(360);
  addDockWidget(Qt::LeftDockWidgetArea, dock);

  setCentralWidget(buildResults());
  buildActions();
  connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
  connect(cancelButton_, &QPushButton::clicked, this, &StudyWindow::cancel);
  connect(editor_, &StudyEditor::changed, this, &StudyWindow::onEditorChanged);

  exportTask_ = new StudyExportTask(this);
  exports_ = new ExportController(this, exportTask_,
                                  {tr("Study export"), tr("Export"), QString(),
                                   QStringLiteral("export/studyDirectory"), QStringLiteral("studyExportProgress")});

  auto* hint = new QLabel(tr("Click a point or a row to load that run into the main window"));
  hint->setStyleSheet(QStringLiteral("color: #5f6368;"));
  statusBar()->addPermanentWidget(hint);

  editor_->setBase(seed);
  updateFigure();
  updateActions();
  setWindowTitle(tr("Study of %1 \u2014 Ricochet").arg(qs(seed.system)));
  resize(1320, 860);
}

StudyWindow::~StudyWindow() = default;

QWidget* StudyWindow::buildResults() {
  auto* central = new QWidget;
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(6, 6, 6, 0);

  auto* choices = new QHBoxLayout;
  metric_ = new QComboBox;
  metric_->setObjectName(QStringLiteral("metricCombo"));
  metric_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  metric_->setMinimumContentsLength(24);
  metric_->setToolTip(tr("The column of the results plotted"));
  x_ = new QComboBox;
  x_->setObjectName(QStringLiteral("xAxisCombo"));
  x_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  x_->setMinimumContentsLength(12);
  x_->setToolTip(tr("The horizontal axis; two axes together make a colour map (or a coloured scatter)"));
  logX_ = new QCheckBox(tr("Log x"));
  logX_->setObjectName(QStringLiteral("logXCheck"));
  logY_ = new QCheckBox(tr("Log y"));
  logY_->setObjectName(QStringLiteral("logYCheck"));
  choices->addWidget(new QLabel(tr("Plot")));
  choices->addWidget(metric_);
  choices->addWidget(new QLabel(tr("against")));
  choices->addWidget(x_);
  choices->addSpacing(12);
  choices->addWidget(logX_);
  choices->addWidget(logY_);
  choices->addStretch(1);
  layout->addLayout(choices);

  plot_ = new StudyPlot;
  table_ = new QTableView;
  table_->setObjectName(QStringLiteral("studyTable"));
  model_ = new StudyTableModel(this);
  sorted_ = new StudyTableSortModel(this);
  sorted_->setSourceModel(model_);
  sorted_->setSortRole(StudyTableModel::kSortRole);
  table_->setModel(sorted_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // file order until a header is clicked
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setAlternatingRowColors(true);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setHighlightSections(false);
  table_->setToolTip(tr("Click a row to load its run into the main window; click a header to sort"));
  report_ = new QPlainTextEdit;
  report_->setObjectName(QStringLiteral("studyReport"));
  report_->setReadOnly(true);
  report_->setLineWrapMode(QPlainTextEdit::NoWrap);
  report_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  resultTabs_ = new QTabWidget;
  resultTabs_->setDocumentMode(true);
  resultTabs_->addTab(table_, tr("Table"));
  resultTabs_->addTab(report_, tr("Report"));
  auto* split = new QSplitter(Qt::Vertical);
  split->setObjectName(QStringLiteral("studySplitter"));
  split->addWidget(plot_);
  split->addWidget(resultTabs_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setChildrenCollapsible(false);
  layout->addWidget(split, 1);

  // A new metric or x column: its default log axes (the user's log boxes reset), then the figure.
  const auto choose = [this] {
    if (choosing_) return;
    FigureChoice c{metric_->currentText(), x_->currentIndex(), false, false};
    applyDefaultLogs(job_->results(), c);
    choosing_ = true;
    logX_->setChecked(c.logX);
    logY_->setChecked(c.logY);
    choosing_ = false;
    updateFigure();
  };
  connect(metric_, &QComboBox::currentIndexChanged, this, choose);
  connect(x_, &QComboBox::currentIndexChanged, this, choose);
  for (QCheckBox* box : {logX_, logY_}) {
    connect(box, &QCheckBox::toggled, this, [this] {
      if (!choosing_) updateFigure();
    });
  }
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    loadRun(std::size_t(sorted_->mapToSource(index).row()));
  });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid()) return plot_->setHighlightedRow(std::nullopt);
            plot_->setHighlightedRow(std::size_t(sorted_->mapToSource(current).row()));
          });
  connect(plot_, &StudyPlot::pointClicked, this, [this](std::size_t row, int tag) {
    const QModelIndex index = sorted_->mapFromSource(model_->index(int(row), 0));
    if (index.isValid()) {
      table_->selectRow(index.row());
      table_->scrollTo(index);
    }
    loadRun(row, tag);
  });
  plot_->setDescriber([this](std::size_t row, int tag) {
    const StudyResults& r = job_->results();
    QString text = r.describe(row, tag);
    const int column = r.table.column(metric_->currentText().toStdString());
    if (column >= 0 && row < r.table.rowCount()) {
      text += QStringLiteral("\n%1 = %2").arg(metric_->currentText(), qs(r.table.cell(row, std::size_t(column))));
    }
    return text + tr("\nclick: load it into the main window");
  });
  return central;
}

void StudyWindow::buildActions() {
  QStyle* st = style();
  QMenu* file = menuBar()->addMenu(tr("&Study"));
  openStudy_ = file->addAction(st->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Study File..."), this,
                               &StudyWindow::showOpenDialog);
  openStudy_->setObjectName(QStringLiteral("openStudyAction"));
  openStudy_->setShortcut(QKeySequence::Open);
  saveStudy_ = file->addAction(st->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save Study File..."), this,
                               &StudyWindow::showSaveDialog);
  saveStudy_->setObjectName(QStringLiteral("saveStudyAction"));
  saveStudy_->setShortcut(QKeySequence::Save);
  saveStudy_->setToolTip(tr("Save the study as a file: `ricochet-cli study FILE --out results.csv` runs it "
                            "on every core, or on a cluster with --shard"));
  file->addSeparator();
  run_ = file->addAction(st->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this, [this] { run(); });
  run_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
  cancel_ = file->addAction(st->standardIcon(QStyle::SP_MediaStop), tr("&Cancel"), this, &StudyWindow::cancel);
  cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
  file->addSeparator();
  exportCsv_ = file->addAction(tr("Export Results &CSV..."), this, &StudyWindow::showCsvDialog);
  exportCsv_->setObjectName(QStringLiteral("exportStudyCsvAction"));
  exportCsv_->setIconText(tr("Export CSV"));
  exportCsv_->setIcon(QIcon::fromTheme(QStringLiteral("text-csv"), st->standardIcon(QStyle::SP_FileIcon)));
  exportCsv_->setToolTip(tr("The results table as ricochet-cli writes it, byte for byte"));
  exportFigure_ = file->addAction(tr("Export &Figure..."), this, &StudyWindow::showFigureDialog);
  exportFigure_->setObjectName(QStringLiteral("exportStudyFigureAction"));
  exportFigure_->setIconText(tr("Export Figure"));
  exportFigure_->setIcon(QIcon::fromTheme(QStringLiteral("image-x-generic"), st->standardIcon(QStyle::SP_FileDialogDetailedView)));
  exportFigure_->setToolTip(tr("The plot as a PNG image or an SVG drawing"));
  file->addSeparator();
  file->addAction(tr("C&lose"), this, &QWidget::close)->setShortcut(QKeySequence::Close);

  QToolBar* bar = addToolBar(tr("Study"));
  bar->setObjectName(QStringLiteral("studyToolBar"));
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  bar->setMovable(false);
  bar->addAction(openStudy_);
  bar->addAction(saveStudy_);
  bar->addSeparator();
  bar->addAction(run_);
  bar->addAction(cancel_);
  bar->addSeparator();
  bar->addAction(exportCsv_);
  bar->addAction(exportFigure_);
}

QString StudyWindow::baseName() const {
  const StudyResults& r = job_->results();
  return QStringLiteral("%1-%2").arg(qs(r.base.system.empty() ? editor_->base().system : r.base.system),
                                     QString::fromLatin1(presetName(r.preset)));
}

QString StudyWindow::run() {
  QString error;
  const auto request = editor_->request(&error);
  if (!request) {
    progressLabel_->setText(error);
    progressLabel_->setStyleSheet(QStringLiteral("color: #b3261e;"));
    statusBar()->showMessage(tr("Not run: %1").arg(error), 10000);
    return error;
  }
  if (const QString e = job_->start(*request); !e.isEmpty()) {
    statusBar()->showMessage(e, 5000);
    return e;
  }
  return {};
}

void StudyWindow::cancel() {
  if (!job_->isRunning()) return;
  job_->cancel();
  progressLabel_->setText(tr("Cancelling..."));
}

void StudyWindow::onStarted() {
  clock_->start();
  resultsShown_ = true;
  finishedText_.clear();
  model_->setTable(&job_->results().table);
  choosing_ = true;
  metric_->clear();
  x_->clear();
  choosing_ = false;
  plot_->setHighlightedRow(std::nullopt);
  report_->clear();
  progress_->setRange(0, 0);  // busy until the runs are checked
  progressLabel_->setStyleSheet(QString());
  progressLabel_->setText(tr("Checking every run..."));
  updateFigure();
  updateActions();
}

void StudyWindow::onProgress(qint64 done, qint64 total, double runsPerSecond, double etaSeconds) {
  if (total <= 0) {
    progress_->setRange(0, 0);
    progressLabel_->setText(tr("Running..."));
    return;
  }
  const qint64 scale = total > 1'000'000 ? total / 1'000'000 + 1 : 1;
  progress_->setRange(0, int(total / scale));
  progress_->setValue(int(done / scale));
  progressLabel_->setText(tr("%1/%2 runs, %3 runs/s, ETA %4")
                              .arg(done)
                              .arg(total)
                              .arg(runsPerSecond, 0, 'g', 3)
                              .arg(done >= total ? QStringLiteral("0 s") : done == 0 ? QStringLiteral("?")
                                                                                     : duration(etaSeconds)));
}

void StudyWindow::onRows(qint64 first) {
  model_->rowsAppended(std::size_t(first));
  if (metric_->count() == 0) fillChoices();
  updateFigure();
  if (first == 0) fitColumns();
}

void StudyWindow::fitColumns() {
  // As wide as the cells need, up to 220 px, and never narrower than the header's longest line
  // (long names come on two lines: StudyTableModel::headerData).
  table_->resizeColumnsToContents();
  QHeaderView* header = table_->horizontalHeader();
  for (int c = 0; c < model_->columnCount(); ++c) {
    table_->setColumnWidth(
        c, std::min(table_->columnWidth(c), std::max(220, header->sectionSizeHint(c))));
  }
}

void StudyWindow::fillChoices() {
  const StudyResults& r = job_->results();
  const QStringList metrics = metricChoices(r);
  if (metrics.isEmpty()) return;
  const FigureChoice c = defaultChoice(r);
  choosing_ = true;
  metric_->addItems(metrics);
  metric_->setCurrentText(c.metric);
  x_->addItems(xChoices(r));
  x_->setCurrentIndex(c.x);
  logX_->setChecked(c.logX);
  logY_->setChecked(c.logY);
  choosing_ = false;
}

void StudyWindow::onFinished() {
  const StudyResults& r = job_->results();
  const double seconds = double(clock_->elapsed()) / 1000.0;
  progress_->setRange(0, 1);
  progress_->setValue(r.complete ? 1 : 0);
  QString text;
  if (!r.error.isEmpty()) {
    text = tr("Not run: %1").arg(r.error);
    progressLabel_->setStyleSheet(QStringLiteral("color: #b3261e;"));
    report_->setPlainText(r.error);
  } else if (r.cancelled) {
    text = tr("Cancelled after %1 of %2 runs: the rows so far are shown, nothing can be exported")
               .arg(r.table.rowCount())
               .arg(r.expectedRows);
  } else {
    text = tr("%1 in %2")
               .arg(countOf(r.runs, tr("run"), tr("runs")),
                    duration(seconds));
    if (r.failed > 0) text += tr(", %n failed (see the status column)", "", int(r.failed));
    if (r.preset == StudyPreset::Custom) {
      report_->setPlainText(tr("%1\n\nThe table is the results CSV of `ricochet-cli study`; Save Study File "
                               "writes the study so that the command line (or a cluster) can run it.")
                                .arg(text));
    } else {
      report_->setPlainText(qs(r.report));
    }
  }
  // Said once, under the progress bar (the status bar is for what the window's actions did).
  finishedText_ = text;
  progressLabel_->setText(text);
  if (metric_->count() == 0) fillChoices();
  updateFigure();
  updateActions();
  emit studyFinished();
}

void StudyWindow::onEditorChanged() {
  const StudyResults& r = job_->results();
  const bool shown = job_->isRunning() || r.table.rowCount() == 0 || r.preset == editor_->preset();
  if (shown != resultsShown_) showResults(shown);
  updateActions();
}

void StudyWindow::showResults(bool shown) {
  resultsShown_ = shown;
  const StudyResults& r = job_->results();
  choosing_ = true;
  metric_->clear();
  x_->clear();
  choosing_ = false;
  plot_->setHighlightedRow(std::nullopt);
  model_->setTable(shown ? &r.table : nullptr);
  if (shown) {
    fillChoices();
    fitColumns();
    progressLabel_->setText(finishedText_);
    report_->setPlainText(hiddenReport_);
  } else {
    hiddenReport_ = report_->toPlainText();
    report_->clear();
    progressLabel_->setText(
        tr("Ready (the %1 results set aside)").arg(QString::fromLatin1(presetName(r.preset))));
  }
  updateFigure();
}

void StudyWindow::updateFigure() {
  const StudyResults& r = job_->results();
  if (!resultsShown_) {
    StudyFigure empty;
    empty.title = tr("Run the study to see its results");
    plot_->setFigure(empty);
    return;
  }
  if (metric_->count() == 0 || r.table.rowCount() == 0) {
    StudyFigure empty;
    empty.title = r.error.isEmpty() ? tr("Results appear here as the runs finish") : tr("The study did not run");
    plot_->setFigure(empty);
    return;
  }
  const FigureChoice c{metric_->currentText(), x_->currentIndex(), logX_->isChecked(), logY_->isChecked()};
  const FigureRecipe recipe = recipeFor(r, c);
  logX_->setEnabled(!recipe.xCategorical);
  plot_->setFigure(buildFigure(r.table, recipe));
}

void StudyWindow::updateActions() {
  const bool running = job_->isRunning();
  const StudyResults& r = job_->results();
  runButton_->setEnabled(!running);
  run_->setEnabled(!running);
  cancelButton_->setEnabled(running);
  cancel_->setEnabled(running);
  exportCsv_->setEnabled(!running && r.complete && resultsShown_);
  exportFigure_->setEnabled(!running && plot_->figure().pointCount() > 0);
  saveStudy_->setEnabled(editor_->preset() == StudyPreset::Custom);
}

// ---------------------------------------------------------------------------------------------

QString StudyWindow::exportResultsCsv(const QString& path) {
  const StudyResults& r = job_->results();
  QString error;
  if (job_->isRunning()) error = tr("the study is still running");
  else if (!r.complete) error = tr("there are no complete results to export (a cancelled or refused study writes no file)");
  else if (!resultsShown_)
    error = tr("the results shown are of another study kind: run this one first");
  const std::string& text = r.table.text();
  exports_->runOnGuiThread([&] {
    return exportTask_->start(
        [&]() -> QString {
          if (!error.isEmpty()) return error;
          return writeFileAtomically(path, QByteArray(text.data(), qsizetype(text.size())));
        },
        tr("Results exported to %1").arg(QDir::toNativeSeparators(path)), tr("Results export"));
  });
  return exportTask_->error();
}

QString StudyWindow::exportFigure(const FigureExportRequest& request) {
  exports_->runOnGuiThread([&] {
    return exportTask_->start([&] { return exportStudyFigure(plot_->figure(), request); },
                              tr("Figure exported to %1").arg(QDir::toNativeSeparators(request.output)),
                              tr("Figure export"));
  });
  return exportTask_->error();
}

QString StudyWindow::saveStudy(const QString& path) {
  QString error;
  const auto study = editor_->customStudy(&error);
  if (study) {
    const study::PlanResult planned = study::planStudy(*study);  // a file ricochet-cli accepts
    if (!planned.ok()) error = qs(planned.error);
  }
  exports_->runOnGuiThread([&] {
    return exportTask_->start(
        [&]() -> QString {
          if (!error.isEmpty()) return error;
          const std::string text = json::write(study::studyToJson(*study), 2);
          return writeFileAtomically(path, QByteArray(text.data(), qsizetype(text.size())));
        },
        tr("Study saved to %1").arg(QDir::toNativeSeparators(path)), tr("Saving the study"));
  });
  return exportTask_->error();
}

QString StudyWindow::openStudy(const QString& path) {
  const study::StudyResult loaded = study::loadStudy(QFile::encodeName(path).toStdString());
  QString error = qs(loaded.error);
  if (loaded.ok() && !editor_->setStudy(*loaded.study, &error)) error = path + QStringLiteral(": ") + error;
  if (!error.isEmpty()) {
    statusBar()->showMessage(tr("Not opened: %1").arg(error), 10000);
    return error;
  }
  statusBar()->showMessage(tr("Opened %1").arg(QFileInfo(path).fileName()), 5000);
  return {};
}

bool StudyWindow::loadRun(std::size_t row, int tag) {
  const StudyResults& r = job_->results();
  const auto scenario = r.scenarioFor(row, tag);
  if (!scenario || !session_) return false;
  const QString what = r.describe(row, tag);
  session_->openScenario(*scenario, tr("%1 of the study").arg(what), QString());
  plot_->setHighlightedRow(row);
  statusBar()->showMessage(tr("Loaded %1 into the main window").arg(what), 8000);
  emit runLoaded(what);
  return true;
}

void StudyWindow::showFigureDialog() {
  auto* dialog = new StudyFigureDialog(exports_->directory(), baseName(), this);
  exports_->openDialog(dialog, [this, dialog] {
    const FigureExportRequest r = dialog->request();
    exports_->rememberDirectory(r.output);
    exportFigure(r);
  });
}

void StudyWindow::askSavePath(const QString& title, const QString& fileName, const QString& filter,
                              const QString& objectName, std::function<void(const QString&)> write) {
  auto* dialog = new QFileDialog(this, title, QDir(exports_->directory()).filePath(fileName), filter);
  dialog->setAcceptMode(QFileDialog::AcceptSave);
  dialog->setObjectName(objectName);
  exports_->openDialog(dialog, [this, dialog, write = std::move(write)] {
    const QString path = dialog->selectedFiles().value(0);
    if (path.isEmpty()) return;
    exports_->rememberDirectory(path);
    write(path);
  });
}

void StudyWindow::showCsvDialog() {
  askSavePath(tr("Export Results CSV"), baseName() + QStringLiteral(".csv"),
              tr("CSV files (*.csv);;All files (*)"), QStringLiteral("studyCsvDialog"),
              [this](const QString& path) { exportResultsCsv(path); });
}

void StudyWindow::showSaveDialog() {
  askSavePath(tr("Save Study File"), qs(editor_->base().system) + QStringLiteral("-study.json"),
              tr("Ricochet studies (*.json);;All files (*)"), QStringLiteral("studySaveDialog"),
              [this](const QString& path) { saveStudy(path); });
}

void StudyWindow::showOpenDialog() {
  auto* dialog = new QFileDialog(this, tr("Open Study File"), exports_->directory(),
                                 tr("Ricochet studies (*.json);;All files (*)"));
  dialog->setFileMode(QFileDialog::ExistingFile);
  dialog->setObjectName(QStringLiteral("studyOpenDialog"));
  exports_->openDialog(dialog, [this, dialog] {
    const QString path = dialog->selectedFiles().value(0);
    if (path.isEmpty()) return;
    if (const QString e = openStudy(path); !e.isEmpty()) showMessage(this, QMessageBox::Warning, tr("Study not opened"), e);
  });
}

void StudyWindow::closeEvent(QCloseEvent* event) {
  job_->cancel();  // the destructor waits for the worker, which stops within 4096 steps
  QMainWindow::closeEvent(event);
}

}  // namespace ricochet::app
